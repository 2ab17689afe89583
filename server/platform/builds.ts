// Safe deploys (issue 23, decision 0031): a build never replaces the files a
// running instance serves.
//   builds/<id>/          one folder per `npm run build` (client/, server/, own-assets.json)
//   build -> builds/<id>  the current build: a symlink, switched atomically
// `npm run build` (scripts/build.ts) writes a new folder, copies into it the
// hashed assets the previous build made (HTML from an instance still on it,
// behind the same proxy, can fetch them from an instance on the new one), then
// renames a fresh symlink over `build` and prunes old folders. A server
// (server/main.ts) resolves the link once at start and serves that folder for
// its whole life, marked in use (<folder>/.in-use/<host>.<pid>) so that pruning
// leaves it alone.
// BUILD_DIR names another link (parallel work side by side); its builds live
// in `<BUILD_DIR>.builds/`.
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';

export const DEFAULT_BUILD_LINK = 'build';
/** Builds kept by pruning: the current one and the two before it (and any a running server marks in use). */
export const KEEP_BUILDS = 3;
/** Where a build lists the hashed assets it made itself (not those it carried from the previous one). */
export const OWN_ASSETS_FILE = 'own-assets.json';
const IN_USE_DIR = '.in-use';
const ID_PATTERN = /^\d{8}T\d{9}Z-[\w.-]+$/;

/** The folder holding the builds of `link`: `builds/` beside `build`, `<link>.builds/` for another name. */
export function buildsRootOf(link: string): string {
  const absolute = resolve(link);
  return basename(absolute) === DEFAULT_BUILD_LINK ? join(dirname(absolute), 'builds') : `${absolute}.builds`;
}

/** A new build's folder name: its UTC time to the millisecond (names sort by age) and the builder's pid. */
export function newBuildId(at: Date = new Date(), suffix: string = String(process.pid)): string {
  return `${at.toISOString().replace(/[-:.]/g, '')}-${suffix}`;
}

/** The folder `link` points to now (a real directory at `link`, an old checkout's build, counts), or null. */
export function currentBuild(link: string): string | null {
  try {
    return realpathSync(link);
  } catch {
    return null;
  }
}

/** The hashed files in a build's client/assets (relative names). */
function assetsOf(build: string): string[] {
  const dir = join(build, 'client', 'assets');
  return existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(join(dir, name)).isFile()) : [];
}

/** Writes own-assets.json: what the build just made. Call before carryAssets. */
export function recordOwnAssets(build: string): string[] {
  const own = assetsOf(build);
  writeFileSync(join(build, OWN_ASSETS_FILE), `${JSON.stringify(own)}\n`);
  return own;
}

/**
 * Copies into `next` the hashed assets `previous` made itself and `next` lacks
 * (with their .br/.gz copies, which are assets too). Only the previous build's
 * own: carrying what it carried would grow every build forever, and an
 * instance two builds behind is not served during a rolling deploy.
 * A build without own-assets.json (made before this script) gives all its assets.
 */
export function carryAssets(previous: string, next: string): number {
  let names: string[];
  try {
    names = JSON.parse(readFileSync(join(previous, OWN_ASSETS_FILE), 'utf8')) as string[];
  } catch {
    names = assetsOf(previous);
  }
  let copied = 0;
  for (const name of names) {
    const from = join(previous, 'client', 'assets', name);
    const to = join(next, 'client', 'assets', name);
    if (existsSync(to) || !existsSync(from)) continue;
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    copied += 1;
  }
  return copied;
}

/**
 * Points `link` at `target` in one step: a new symlink renamed over the old
 * one (rename(2) replaces it atomically: a reader sees the old build or the
 * new one, never none). A real directory at `link` (an old checkout's build)
 * cannot be renamed over; it moves into the builds folder first, as a build
 * of its own (still whole, so a server started on it keeps its files).
 */
export function switchCurrent(link: string, target: string): void {
  const linkPath = resolve(link);
  const temporary = `${linkPath}.next-${process.pid}`;
  rmSync(temporary, { force: true });
  symlinkSync(relative(dirname(linkPath), resolve(target)), temporary, 'dir');
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(linkPath);
  } catch {
    existing = undefined;
  }
  if (existing?.isDirectory()) {
    const root = buildsRootOf(link);
    mkdirSync(root, { recursive: true });
    renameSync(linkPath, join(root, newBuildId(existing.mtime, 'legacy')));
  }
  renameSync(temporary, linkPath);
}

/**
 * The end of `npm run build` once `folder` is complete: records its own
 * assets, carries in the previous build's, switches `link` to it and prunes.
 */
export function installBuild(link: string, folder: string): { own: number; carried: number; previous: string | null; removed: string[] } {
  const own = recordOwnAssets(folder).length;
  const previous = currentBuild(link);
  const carried = previous ? carryAssets(previous, folder) : 0;
  switchCurrent(link, folder);
  return { own, carried, previous, removed: pruneBuilds(link) };
}

/** Is a marker's process alive? Another host's cannot be asked: counted alive. */
function markerAlive(marker: string): boolean {
  const match = /^(.*)\.(\d+)$/.exec(marker);
  if (!match) return false;
  if (match[1] !== hostname()) return true;
  try {
    process.kill(Number(match[2]), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Does a running server on this host (or another sharing the folder) serve this build? Stale markers are removed. */
export function inUse(build: string): boolean {
  const dir = join(build, IN_USE_DIR);
  if (!existsSync(dir)) return false;
  let alive = false;
  for (const marker of readdirSync(dir)) {
    if (markerAlive(marker)) alive = true;
    else rmSync(join(dir, marker), { force: true });
  }
  return alive;
}

/**
 * Removes old builds of `link`: keeps the newest `keep` (by name, i.e. by
 * time), the current one, and any a running server marks in use. Returns the
 * removed folders.
 */
export function pruneBuilds(link: string, keep: number = KEEP_BUILDS): string[] {
  const root = buildsRootOf(link);
  if (!existsSync(root)) return [];
  const current = currentBuild(link);
  const builds = readdirSync(root)
    .filter((name) => ID_PATTERN.test(name))
    .sort()
    .reverse();
  const removed: string[] = [];
  for (const name of builds.slice(keep)) {
    const folder = join(root, name);
    if (folder === current || inUse(folder)) continue;
    rmSync(folder, { recursive: true, force: true });
    removed.push(folder);
  }
  return removed;
}

/**
 * For server/main.ts: the folder `link` points to now, resolved once, and a
 * marker saying this process serves it (best effort: a read-only folder just
 * goes unmarked). release() removes the marker (at exit).
 */
export function claimServedBuild(link: string): { dir: string; release(): void } | null {
  const dir = currentBuild(link);
  if (!dir) return null;
  const marker = join(dir, IN_USE_DIR, `${hostname()}.${process.pid}`);
  try {
    mkdirSync(dirname(marker), { recursive: true });
    writeFileSync(marker, '');
  } catch {
    return { dir, release() {} };
  }
  return { dir, release: () => rmSync(marker, { force: true }) };
}
