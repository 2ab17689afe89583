// npm run bench:lighthouse — Lighthouse performance (mobile: simulated slow 4G
// and a mid-range phone's CPU; desktop) of home, a country page and a product
// page of the built app, in Debian's Chromium. Each figure is the median of
// LIGHTHOUSE_RUNS runs (3 by default). Prints, asserts nothing.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import { guestPages, startBuiltApp } from './support.ts';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const app = await startBuiltApp();
const pages = guestPages(app.dbFile);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

interface Run {
  score: number;
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  si: number;
}

async function audit(url: string, formFactor: 'mobile' | 'desktop'): Promise<Run> {
  const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const { lhr } = result;
  version = lhr.lighthouseVersion;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcp: value('largest-contentful-paint'),
    fcp: value('first-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    si: value('speed-index'),
  };
}

/** Lighthouse sometimes loses the trace on a busy machine (NO_NAVSTART): such a run is done again. */
async function auditWithRetry(url: string, formFactor: 'mobile' | 'desktop'): Promise<Run> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(url, formFactor);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`(retrying after: ${(error as Error).message.slice(0, 120)})`);
    }
  }
}

/** The run with the median score (its own metrics, so they belong together). */
function median(runs: Run[]): Run {
  return [...runs].sort((a, b) => a.score - b.score || a.lcp - b.lcp)[Math.floor(runs.length / 2)]!;
}

let version = '';
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rows: string[] = [];
try {
  for (const page of pages) {
    const url = `http://127.0.0.1:${app.port}${page.path}`;
    await fetch(url); // fills the guest page cache where the page has one, as in production
    for (const formFactor of ['mobile', 'desktop'] as const) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await auditWithRetry(url, formFactor));
      const m = median(runs);
      rows.push(
        `${page.name.padEnd(8)} ${formFactor.padEnd(8)} score ${String(m.score).padStart(3)} (runs ${runs.map((r) => r.score).join('/')})` +
          `   LCP ${s(m.lcp)}   FCP ${s(m.fcp)}   TBT ${m.tbt.toFixed(0)} ms   CLS ${m.cls.toFixed(3)}   SI ${s(m.si)}   ${page.path}`,
      );
      console.log(rows.at(-1));
    }
  }
} finally {
  await chrome.kill();
  app.child.kill('SIGTERM');
}
console.log(`\nLighthouse ${version}, median of ${RUNS} runs; goals: mobile ≥ 90 with LCP ≤ 2.5 s, desktop ≥ 98`);
process.exit(0);
