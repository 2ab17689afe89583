#!/usr/bin/env node
// `npm test`: every test there is, in order, with one summary line at the end.
//   1. unit + API tests (Vitest) on SQLite;
//   2. the API tests again on PostgreSQL when TEST_DATABASE_URL is set (CI sets it);
//   3. end-to-end journeys (Playwright) in Debian's Chromium against a fresh build.
// Without Chromium the end-to-end part cannot run: that is said loudly, the run
// is marked INCOMPLETE, and under CI it fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const isCI = Boolean(process.env.CI);
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
/** End-to-end tests that failed once and passed on their CI retry (decision 0030): named, never hidden. */
const flaky = [];
/** How long each part took, printed at the end: CI's budget is 45 minutes. */
const timings = [];

function run(label, command, args, env = {}) {
  console.log(`\n━━━ ${label} ━━━\n$ ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push(`${label}: ${((Date.now() - started) / 60000).toFixed(1)} min`);
  if (result.status !== 0) problems.push(`${label} exited with ${result.status ?? result.signal}`);
  return result.status === 0;
}

function countVitest(file) {
  if (!existsSync(file)) return problems.push(`${file} was not written`);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

function countPlaywright(file) {
  if (!existsSync(file)) return problems.push(`${file} was not written`);
  const { stats, suites } = JSON.parse(readFileSync(file, 'utf8'));
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) for (const test of spec.tests) if (test.status === 'flaky') flaky.push(`${spec.file}:${spec.line} › ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of suites ?? []) walk(suite);
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

if (!existsSync('node_modules/.package-lock.json')) run('install dependencies', 'npm', ['install', '--no-audit', '--no-fund']);
rmSync('test-results', { recursive: true, force: true });
mkdirSync('test-results', { recursive: true });

run('unit and API tests on SQLite', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest-sqlite.json']);
countVitest('test-results/vitest-sqlite.json');

if (process.env.TEST_DATABASE_URL) {
  run('API tests on PostgreSQL', 'npx', ['vitest', 'run', 'server', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest-postgres.json']);
  countVitest('test-results/vitest-postgres.json');
} else {
  console.log('\n(API tests on PostgreSQL not run: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to include them)');
}

let incomplete = false;
if (existsSync(CHROMIUM)) {
  if (run('build the app for end-to-end tests', 'npm', ['run', 'build'])) {
    run('end-to-end tests in Chromium', 'npx', ['playwright', 'test']);
    countPlaywright('test-results/e2e.json');
  }
} else {
  incomplete = true;
  const banner = '!'.repeat(78);
  console.error(
    `\n${banner}\n!! END-TO-END TESTS NOT RUN: no Chromium at ${CHROMIUM}.\n!! Install it with: apt-get update && apt-get install -y chromium fonts-noto-cjk\n!! (or point CHROMIUM_PATH at a Chromium binary). THIS TEST RUN IS INCOMPLETE.\n${banner}`,
  );
  if (isCI) problems.push('Chromium is missing under CI');
}

console.log('');
if (flaky.length > 0) {
  const banner = '!'.repeat(78);
  console.log(`${banner}\n!! FLAKY: ${flaky.length} end-to-end test(s) failed once and passed on the retry; fix them:`);
  for (const name of flaky) console.log(`!!   ${name}`);
  console.log(banner);
}
for (const timing of timings) console.log(`time: ${timing}`);
for (const problem of problems) console.log(`problem: ${problem}`);
if (incomplete) console.log('INCOMPLETE: the end-to-end tests did not run');
console.log(
  `${totals.passed} passed${flaky.length > 0 ? ` (${flaky.length} of them flaky, on a retry)` : ''}, ${totals.failed} failed, ${totals.skipped} skipped`,
);
process.exit(problems.length > 0 || totals.failed > 0 ? 1 : 0);
