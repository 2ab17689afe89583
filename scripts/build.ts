// `npm run build`: a new folder per build, switched in atomically (issue 23,
// decision 0031). The steps, each with NODE_ENV=production:
//   1. antd's stylesheets (scripts/antd-styles.tsx, into app/generated/);
//   2. react-router build into builds/<id>/ (BUILD_DIR for react-router.config.ts);
//   3. brotli and gzip copies of the client files (scripts/precompress.mjs);
//   4. own-assets.json, then the previous build's own hashed assets copied in;
//   5. `build` → builds/<id> (a symlink renamed over the old one);
//   6. old builds pruned (the newest three kept, and any a running server uses).
// A failed step leaves `build` as it was (the half-made folder is removed).
// Two builds at once in one tree take turns (builds/.build-lock, holding the pid).
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildsRootOf, currentBuild, DEFAULT_BUILD_LINK, installBuild, newBuildId } from '../server/platform/builds.ts';

const link = process.env.BUILD_DIR ?? DEFAULT_BUILD_LINK;
const root = buildsRootOf(link);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One build at a time in this tree: antd-styles rewrites app/generated/, which the other's Vite reads. */
async function takeBuildLock(): Promise<() => void> {
  mkdirSync(root, { recursive: true });
  const lock = join(root, '.build-lock');
  let told = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(lock, 'utf8'));
    } catch {
      // removed meanwhile: try again
    }
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (stopped) process.exit(1);
    if (!told) console.log(`waiting for the build of process ${holder} to finish (${relative('.', lock)})`);
    told = true;
    await sleep(1000);
  }
}

// SIGINT / SIGTERM (Ctrl-C, npm passing on a stop) reach the running step, and the build stops after it.
let running: ChildProcess | null = null;
let stopped: NodeJS.Signals | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopped = signal;
    running?.kill(signal);
  });
}

async function step(label: string, command: string, args: string[], env: Record<string, string>): Promise<void> {
  if (stopped) throw new Error(`stopped by ${stopped}`);
  console.log(`\n▸ ${label}`);
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', ...env } });
  running = child;
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  running = null;
  if (stopped) throw new Error(`stopped by ${stopped}`);
  if (code !== 0) throw new Error(`${label} failed (${code ?? signal})`);
}

const release = await takeBuildLock();
const id = newBuildId();
const folder = join(root, id);
const shown = relative('.', folder);
try {
  await step('antd stylesheets', process.execPath, ['--import', 'tsx', 'scripts/antd-styles.tsx'], {});
  await step(`react-router build → ${shown}`, process.execPath, ['node_modules/@react-router/dev/bin.js', 'build'], { BUILD_DIR: folder });
  await step('precompress', process.execPath, ['scripts/precompress.mjs'], { BUILD_DIR: folder });
  if (stopped) throw new Error(`stopped by ${stopped}`);
  const { own, carried, previous, removed } = installBuild(link, folder);
  console.log(
    `\n${link} → ${shown}: ${own} asset files of its own, ${carried} carried from ${previous ? relative('.', previous) : '(no previous build)'}` +
      (removed.length > 0 ? `; removed ${removed.map((dir) => relative('.', dir)).join(', ')}` : ''),
  );
} catch (error) {
  const switched = existsSync(folder) && currentBuild(link) === realpathSync(folder);
  if (!switched) rmSync(folder, { recursive: true, force: true });
  console.error(
    `\nbuild failed: ${error instanceof Error ? error.message : String(error)}; ${switched ? `${link} → ${shown} all the same` : `${link} unchanged`}`,
  );
  process.exitCode = 1;
} finally {
  release();
}
