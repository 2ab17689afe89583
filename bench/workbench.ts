// npm run bench:workbench — the server render of the operator's workbench
// (/admin/orders/:id, issue 24 item 6) for an order of BENCH_APPLICANTS (20)
// applicants with ten files each (nine checklist scans and the photo), and
// for a two-applicant order: p50/p95/p99 of the first byte and of the whole
// page over BENCH_REQUESTS (200) requests, one at a time, by a logged-in
// operator. The built app runs in demo mode on a SQLite file of its own; the
// order is made the way the screens make it (signed customer calls, real
// JPEG uploads through the stored-file module, the sandbox payment), so it
// sits in 资料审核中 with every file pending. Goal: p95 ≤ 150 ms for the
// full page of the 20-applicant order. Prints figures; asserts nothing.
import { performance } from 'node:perf_hooks';
import { workbenchBench } from './workbench-order.ts';

const APPLICANTS = Number(process.env.BENCH_APPLICANTS ?? 20);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARM_UP = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const bench = await workbenchBench();
const { base } = bench;

async function measure(label: string, userOrderId: number, cookie: string) {
  const url = `${base}/admin/orders/${userOrderId}`;
  const once = async () => {
    const start = performance.now();
    const response = await fetch(url, { headers: { cookie, accept: 'text/html' } });
    const firstByte = performance.now() - start;
    const html = await response.text();
    const full = performance.now() - start;
    if (response.status !== 200 || !html.includes('data-testid="admin-workbench"')) throw new Error(`${url}: ${response.status}`);
    return { firstByte, full, bytes: html.length };
  };
  for (let i = 0; i < WARM_UP; i += 1) await once();
  const firstBytes: number[] = [];
  const fulls: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i += 1) {
    const run = await once();
    firstBytes.push(run.firstByte);
    fulls.push(run.full);
    bytes = run.bytes;
  }
  firstBytes.sort((a, b) => a - b);
  fulls.sort((a, b) => a - b);
  const line = (name: string, times: number[]) =>
    `  ${name.padEnd(11)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms`;
  console.log(`${label}: ${(bytes / 1024).toFixed(0)} KB of HTML, ${REQUESTS} requests one at a time after ${WARM_UP} to warm up`);
  console.log(line('first byte', firstBytes));
  console.log(line('full page', fulls));
  return percentile(fulls, 95);
}

try {
  const cookie = await bench.operatorCookie();
  const small = await bench.orderInReview(2);
  const large = await bench.orderInReview(APPLICANTS);
  await measure(`workbench, 2 applicants × 10 files (order ${small})`, small, cookie);
  const p95 = await measure(`workbench, ${APPLICANTS} applicants × 10 files (order ${large})`, large, cookie);
  console.log(`goal: full page p95 ≤ 150 ms for ${APPLICANTS} applicants — ${p95 <= 150 ? 'met' : 'not met'} (${p95.toFixed(1)} ms)`);
} finally {
  await bench.close();
}
process.exit(0);
