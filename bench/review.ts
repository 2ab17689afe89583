// npm run bench:review — 资料审核 by keyboard alone (issue 27): a
// BENCH_APPLICANTS (10) applicant order with ten files each, in 资料审核中,
// reviewed in Chromium by a supervisor of the bench's own pressing P on each
// file (the cursor moves to the next pending file by itself) until the round
// ends and the workbench opens the next order (here: the queue). Prints
// keystrokes per file (goal ≤ 2) and seconds per file (goal ≤ 1 s), from the
// first key to every review stored. The built app, as bench:workbench.
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import { workbenchBench } from './workbench-order.ts';

const APPLICANTS = Number(process.env.BENCH_APPLICANTS ?? 10);

const bench = await workbenchBench();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const userOrderId = await bench.orderInReview(APPLICANTS);
  const cookie = (await bench.operatorCookie()).split('=');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: cookie[0]!, value: cookie[1]!, url: bench.base, httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  await page.goto(`${bench.base}/admin/orders/${userOrderId}`);
  await page.waitForSelector('[data-testid="fast-review"]');
  // Hydrated (app/root.tsx's first effect): a key pressed before reaches no handler.
  await page.waitForFunction(() => (window as unknown as { __appHydrated?: boolean }).__appHydrated === true);
  const total = await bench.db
    .selectFrom('order_material_file')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_order_id', '=', userOrderId)
    .executeTakeFirstOrThrow();
  const files = Number(total.n);
  let keys = 0;
  const start = performance.now();
  // One P per file: each waits until the page shows the decision and the cursor on the next file, as an operator would.
  for (let i = 0; i < files; i += 1) {
    const current = page.locator('[data-testid="review-file"][aria-current="true"]');
    const id = await current.getAttribute('data-file-id');
    await page.keyboard.press('p');
    keys += 1;
    if (i < files - 1)
      await page.waitForFunction(
        (before) => document.querySelector('[data-testid="review-file"][aria-current="true"]')?.getAttribute('data-file-id') !== before,
        id,
      );
  }
  await page.waitForURL((url) => url.pathname !== `/admin/orders/${userOrderId}`, { timeout: 120_000 });
  const elapsed = (performance.now() - start) / 1000;
  const left = await bench.db
    .selectFrom('order_material_file')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_order_id', '=', userOrderId)
    .where('review_status', '!=', 'passed')
    .executeTakeFirstOrThrow();
  if (Number(left.n) !== 0) throw new Error(`${left.n} files not stored as passed`);
  const perFile = elapsed / files;
  console.log(`review by keyboard: ${APPLICANTS} applicants, ${files} files, ${keys} keystrokes, ${elapsed.toFixed(1)} s until every review was stored`);
  console.log(`  keystrokes per file ${(keys / files).toFixed(2)} (goal ≤ 2) — ${keys / files <= 2 ? 'met' : 'not met'}`);
  console.log(`  seconds per file    ${perFile.toFixed(2)} (goal ≤ 1 s) — ${perFile <= 1 ? 'met' : 'not met'}`);
  await context.close();
} finally {
  await browser.close();
  await bench.close();
}
process.exit(0);
