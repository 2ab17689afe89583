#!/usr/bin/env node
// `npm test`: every test there is, with one summary line at the end. Two lanes
// run side by side (docs/decisions/0040-test-lanes.md: Vitest uses one worker on a
// 2-core machine, so the browser lane gets the other core):
//   lane "api":     unit + API tests (Vitest) on SQLite, then the API tests again
//                   on PostgreSQL when TEST_DATABASE_URL is set (CI sets it);
//   lane "browser": a fresh build, then the end-to-end journeys (Playwright) in
//                   Debian's Chromium.
// The journeys outlast the API tests, so the api lane, once its Vitest runs are
// done, runs the late part of them (playwright.config.ts LATE_SPECS, decision
// 0042) on the same build with servers of its own; the browser lane runs the rest.
// Each lane writes its output to test-results/<lane>.log, printed whole when the
// lane ends (never interleaved). TEST_LANES=serial runs them one after the other.
// Without Chromium the end-to-end part cannot run: that is said loudly, the run
// is marked INCOMPLETE, and under CI it fails.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const isCI = Boolean(process.env.CI);
const serial = process.env.TEST_LANES === 'serial';
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
/** End-to-end tests that failed once and passed on their CI retry (decision 0030): named, never hidden. */
const flaky = [];
/** How long each part took, printed at the end: CI's budget is 45 minutes. */
const timings = [];
const minutes = (since) => ((Date.now() - since) / 60000).toFixed(1);

/** Runs one command with its output appended to the lane's log; resolves true when it passed. */
function step(log, label, command, args, env = {}) {
  const started = Date.now();
  appendFileSync(log, `\n━━━ ${label} ━━━\n$ ${[command, ...args].join(' ')}\n`);
  const fd = openSync(log, 'a');
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => {
      closeSync(fd);
      timings.push(`${label}: ${minutes(started)} min`);
      if (code !== 0) problems.push(`${label} exited with ${code ?? signal}`);
      resolve(code === 0);
    });
  });
}

/** A lane: its steps in order, its log printed whole once it is done. */
async function lane(name, body) {
  const log = `test-results/${name}.log`;
  const started = Date.now();
  await body(log);
  console.log(`\n┏━━━━ lane "${name}" (${minutes(started)} min) ━━━━`);
  process.stdout.write(existsSync(log) ? readFileSync(log) : '(no output)\n');
  console.log(`┗━━━━ end of lane "${name}" ━━━━`);
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

if (!existsSync('node_modules/.package-lock.json')) spawnSync('npm', ['install', '--no-audit', '--no-fund'], { stdio: 'inherit' });
rmSync('test-results', { recursive: true, force: true });
mkdirSync('test-results', { recursive: true });
const started = Date.now();

let incomplete = false;
/** Split the journeys between the lanes only when both lanes run at once and there is a browser. */
const split = !serial && existsSync(CHROMIUM);
const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
/** Resolves once the browser lane's build is done: true when it succeeded. */
let buildDone;
const built = new Promise((resolve) => (buildDone = resolve));
const apiLane = () =>
  lane('api', async (log) => {
    const vitest = (out, ...only) => ['vitest', 'run', ...only, '--reporter=default', '--reporter=json', `--outputFile=${out}`];
    // On SQLite: without TEST_DATABASE_URL, which CI sets for the PostgreSQL run below (undefined drops it from the child's environment).
    await step(log, 'unit and API tests on SQLite', 'npx', vitest('test-results/vitest-sqlite.json'), { TEST_DATABASE_URL: undefined });
    countVitest('test-results/vitest-sqlite.json');
    if (process.env.TEST_DATABASE_URL) {
      await step(log, 'API tests on PostgreSQL', 'npx', vitest('test-results/vitest-postgres.json', 'server'));
      countVitest('test-results/vitest-postgres.json');
    } else {
      console.log('\n(API tests on PostgreSQL not run: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to include them)');
    }
    if (split && (await built)) {
      // Its own ports: 50 above the browser lane's (each part also uses +7, +8, +500 and +1000).
      const env = { E2E_PART: 'late', E2E_PORT: String(E2E_PORT + 50) };
      await step(log, 'end-to-end tests in Chromium, late part', 'npx', ['playwright', 'test'], env);
      countPlaywright('test-results/e2e-late.json');
    }
  });

const browserLane = () =>
  lane('browser', async (log) => {
    if (!existsSync(CHROMIUM)) {
      buildDone(false);
      incomplete = true;
      const banner = '!'.repeat(78);
      console.error(
        `\n${banner}\n!! END-TO-END TESTS NOT RUN: no Chromium at ${CHROMIUM}.\n!! Install it with: apt-get update && apt-get install -y chromium fonts-noto-cjk\n!! (or point CHROMIUM_PATH at a Chromium binary). THIS TEST RUN IS INCOMPLETE.\n${banner}`,
      );
      if (isCI) problems.push('Chromium is missing under CI');
      return;
    }
    const ok = await step(log, 'build the app for end-to-end tests', 'npm', ['run', 'build']);
    buildDone(ok);
    if (ok) {
      const part = split ? 'early' : undefined;
      await step(log, `end-to-end tests in Chromium${part ? ', early part' : ''}`, 'npx', ['playwright', 'test'], part ? { E2E_PART: part } : {});
      countPlaywright(`test-results/e2e${part ? `-${part}` : ''}.json`);
    }
  });

if (serial) {
  await apiLane();
  await browserLane();
} else {
  console.log('Running the "api" and "browser" lanes side by side; each prints its output when it ends (test-results/<lane>.log meanwhile).');
  await Promise.all([apiLane(), browserLane()]);
}

console.log('');
if (flaky.length > 0) {
  const banner = '!'.repeat(78);
  console.log(`${banner}\n!! FLAKY: ${flaky.length} end-to-end test(s) failed once and passed on the retry; fix them:`);
  for (const name of flaky) console.log(`!!   ${name}`);
  console.log(banner);
}
for (const timing of timings) console.log(`time: ${timing}`);
console.log(`time: all tests ${minutes(started)} min`);
for (const problem of problems) console.log(`problem: ${problem}`);
if (incomplete) console.log('INCOMPLETE: the end-to-end tests did not run');
console.log(
  `${totals.passed} passed${flaky.length > 0 ? ` (${flaky.length} of them flaky, on a retry)` : ''}, ${totals.failed} failed, ${totals.skipped} skipped`,
);
process.exit(problems.length > 0 || totals.failed > 0 ? 1 : 0);
