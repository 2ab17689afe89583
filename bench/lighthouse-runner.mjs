// Run by bench/lighthouse.ts in a child process: audits the URLs it is given
// with the Lighthouse found in the folder it is given, and prints one line per
// run ("LHRUN {json}"). Plain JavaScript, because Lighthouse 13 runs it under
// the Node 22 of bench/lighthouse13/ (Lighthouse 13 needs Node >= 22.19, the
// project runs Node 20), without the project's tsx; Lighthouse 12 runs it
// under the project's Node, for comparison.
//
// argv[2]: JSON { lighthouseDir, chromePath, runs, saveDir?, jobs: [{ name, url, formFactor }] }
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { lighthouseDir, chromePath, runs, saveDir, jobs } = JSON.parse(process.argv[2]);
const load = (pkg, file) => import(pathToFileURL(join(lighthouseDir, 'node_modules', pkg, file)).href);
const { default: lighthouse, desktopConfig } = await load('lighthouse', 'core/index.js');
const chromeLauncher = await load('chrome-launcher', 'dist/index.js');

const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function audit(job, index) {
  const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
  const result = await lighthouse(job.url, flags, job.formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`no Lighthouse result for ${job.url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${job.url}: ${lhr.runtimeError.message}`);
  if (saveDir) {
    // The whole report, to read where the render waited (LCP breakdown, render-blocking requests, network tree).
    mkdirSync(saveDir, { recursive: true });
    writeFileSync(join(saveDir, `${job.name}-${job.formFactor}-${index + 1}.json`), JSON.stringify(lhr));
  }
  const value = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    version: lhr.lighthouseVersion,
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcp: value('largest-contentful-paint'),
    fcp: value('first-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    si: value('speed-index'),
  };
}

/** Lighthouse sometimes loses the trace on a busy machine (NO_NAVSTART): such a run is done again. */
async function auditWithRetry(job, index) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(job, index);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.error(`(retrying after: ${String(error?.message ?? error).slice(0, 120)})`);
    }
  }
}

try {
  for (const job of jobs) {
    for (let i = 0; i < runs; i += 1) {
      const run = await auditWithRetry(job, i);
      console.log(`LHRUN ${JSON.stringify({ name: job.name, url: job.url, formFactor: job.formFactor, ...run })}`);
    }
  }
} finally {
  await chrome.kill();
}
process.exit(0);
