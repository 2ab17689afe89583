// Safe deploys (issue 23, decision 0031): a build never replaces the files a
// running instance serves. Fake builds (server/test-support/fake-build.ts)
// stand in for the real two-minute one; the switching is the same code
// scripts/build.ts runs after react-router build (installBuild).
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { startServer, writeFakeBuild } from '../test-support/fake-build.ts';
import {
  buildsRootOf,
  carryAssets,
  claimServedBuild,
  currentBuild,
  installBuild,
  newBuildId,
  OWN_ASSETS_FILE,
  pruneBuilds,
  recordOwnAssets,
  switchCurrent,
} from './builds.ts';

const tmp = mkdtempSync(join(tmpdir(), 'visa-builds-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let tree: string;
let link: string;
let root: string;
let n = 0;
beforeEach(() => {
  tree = join(tmp, `tree-${(n += 1)}`);
  mkdirSync(tree);
  link = join(tree, 'build');
  root = join(tree, 'builds');
});

/** A finished react-router build in builds/<id>/ (ids one second apart, oldest first). */
function fakeBuild(second: number, assets: Record<string, string>): string {
  return writeFakeBuild(join(root, newBuildId(new Date(Date.UTC(2026, 10, 28, 1, 0, second)), 'test')), assets);
}

describe('the builds folder', () => {
  it('is builds/ beside build, <name>.builds/ beside another link', () => {
    expect(buildsRootOf('/srv/app/build')).toBe('/srv/app/builds');
    expect(buildsRootOf('/srv/app/build-e2e')).toBe('/srv/app/build-e2e.builds');
  });

  it('switches the link atomically to the new build, which holds the previous build own hashed assets too', () => {
    const a = fakeBuild(1, { 'entry-AAAA.js': 'a', 'entry-AAAA.js.br': 'a-br', 'root-AAAA.css': 'a-css' });
    installBuild(link, a);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join('builds', readdirSync(root)[0]!));
    const b = fakeBuild(2, { 'entry-BBBB.js': 'b' });
    const result = installBuild(link, b);
    expect(result).toMatchObject({ own: 1, carried: 3, previous: realpathSync(a), removed: [] });
    expect(currentBuild(link)).toBe(realpathSync(b));
    expect(readdirSync(join(b, 'client', 'assets')).sort()).toEqual(['entry-AAAA.js', 'entry-AAAA.js.br', 'entry-BBBB.js', 'root-AAAA.css']);
    // A's folder is untouched: an instance started on it serves it on.
    expect(readdirSync(join(a, 'client', 'assets')).sort()).toEqual(['entry-AAAA.js', 'entry-AAAA.js.br', 'root-AAAA.css']);
    // Only the previous build's own assets travel: C gets B's, not the A files B carried.
    const c = fakeBuild(3, { 'entry-CCCC.js': 'c' });
    expect(installBuild(link, c).carried).toBe(1);
    expect(readdirSync(join(c, 'client', 'assets')).sort()).toEqual(['entry-BBBB.js', 'entry-CCCC.js']);
    expect(JSON.parse(readFileSync(join(c, OWN_ASSETS_FILE), 'utf8'))).toEqual(['entry-CCCC.js']);
  });

  it('replaces a build/ that is a real directory (an old checkout) by the link, keeping the old build whole in builds/', () => {
    writeFakeBuild(link, { 'old-OOOO.js': 'old' });
    const b = fakeBuild(2, { 'new-NNNN.js': 'new' });
    recordOwnAssets(b);
    expect(carryAssets(link, b)).toBe(1); // no own-assets.json: all its assets
    switchCurrent(link, b);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(currentBuild(link)).toBe(realpathSync(b));
    const legacy = readdirSync(root).find((name) => name.endsWith('-legacy'))!;
    expect(readFileSync(join(root, legacy, 'client', 'assets', 'old-OOOO.js'), 'utf8')).toBe('old');
    expect(existsSync(join(root, legacy, 'server', 'index.js'))).toBe(true);
  });

  it('prunes all but the newest three, never the current one nor one a live server marks in use', () => {
    const builds = [1, 2, 3, 4, 5].map((second) => fakeBuild(second, { [`x-${second}.js`]: String(second) }));
    installBuild(link, builds[0]!);
    // A server on the first build (this process), and a stale marker of a process that is gone on the second.
    const served = claimServedBuild(link)!;
    mkdirSync(join(builds[1]!, '.in-use'), { recursive: true });
    writeFileSync(join(builds[1]!, '.in-use', `${hostname()}.999999999`), '');
    for (const build of builds.slice(1)) installBuild(link, build);
    expect(readdirSync(root).sort()).toEqual([1, 3, 4, 5].map((i) => builds[i - 1]!.split('/').pop()).sort());
    served.release();
    expect(pruneBuilds(link)).toEqual([builds[0]]);
  });
});

describe('a running instance while another build switches the link', () => {
  it('answers 200 on every one of its assets during and after the switch; a new instance on the new build serves the old assets too', async () => {
    const assetsA: Record<string, string> = {};
    for (let i = 0; i < 20; i += 1) assetsA[`chunk-${i}-A${i}x.js`] = `a${i}`;
    const a = fakeBuild(1, assetsA);
    installBuild(link, a);
    const env = (db: string) => {
      const file = join(tree, db);
      const template = inject('sqliteTemplate');
      if (template) writeFileSync(file, readFileSync(template));
      return { BUILD_DIR: link, SQLITE_FILE: file, UPLOAD_DIR: join(tree, 'uploads'), OUTBOX_DIR: join(tree, 'outbox'), SHUTDOWN_DRAIN_MS: '0' };
    };
    const first = await startServer(env('first.db'));
    let stop = false;
    try {
      const statuses = new Map<number, number>();
      const loop = (async () => {
        while (!stop) {
          for (const name of Object.keys(assetsA)) {
            // 0: no answer at all.
            const status = await fetch(`http://127.0.0.1:${first.port}/assets/${name}`).then(
              async (response) => (await response.arrayBuffer(), response.status),
              () => 0,
            );
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Build B: other hashed names (A's are not in it until carried), switched in while A is being fetched.
      const b = fakeBuild(2, { 'chunk-0-B0y.js': 'b0', 'chunk-1-B1y.js': 'b1' });
      installBuild(link, b);
      expect(readdirSync(join(b, 'client', 'assets')).sort()).toEqual([...Object.keys(assetsA), 'chunk-0-B0y.js', 'chunk-1-B1y.js'].sort());
      // An instance started now serves B, and A's assets too (HTML from the first instance, behind the same proxy).
      const second = await startServer(env('second.db'));
      try {
        for (const [name, content] of Object.entries(assetsA)) {
          const response = await fetch(`http://127.0.0.1:${second.port}/assets/${name}`);
          expect([response.status, await response.text()]).toEqual([200, content]);
        }
        expect((await fetch(`http://127.0.0.1:${second.port}/assets/chunk-0-B0y.js`)).status).toBe(200);
        // The first instance serves A, not B (a fake build renders no 404 page: React Router's 500).
        expect((await fetch(`http://127.0.0.1:${first.port}/assets/chunk-0-B0y.js`)).status).not.toBe(200);
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
      // And three more builds: B goes, but A, in use by the first instance, survives the pruning.
      for (const second of [3, 4, 5]) installBuild(link, fakeBuild(second, { [`chunk-${second}.js`]: 'n' }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      stop = true;
      await loop;
      expect([...statuses.keys()]).toEqual([200]);
      expect(statuses.get(200)).toBeGreaterThan(40);
      expect(existsSync(join(a, 'client', 'assets', 'chunk-0-A0x.js'))).toBe(true);
      expect(existsSync(b)).toBe(false);
    } finally {
      stop = true;
      first.child.kill('SIGTERM');
      await first.exited;
    }
    // Its marker went with it: the next build's pruning removes A.
    expect(pruneBuilds(link)).toContain(a);
  });
});
