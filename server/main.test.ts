// server/main.ts as a process (issue 23): the start-up checks refuse a bad
// setting with one line naming it, and SIGTERM stops gracefully (readyz 503 at
// once, serving on through the drain, requests in flight answered, exit 0).
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, writeFakeBuild } from './test-support/fake-build.ts';

let dir: string;
let build: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'visa-main-'));
  // Readable by the unprivileged user the read-only test runs as.
  chmodSync(dir, 0o755);
  build = writeFakeBuild(join(dir, 'build'), { 'entry-AbC123.js': 'console.log(1)' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on (bound, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs main.ts to its end; its exit code and what it wrote on stderr. */
function run(env: Record<string, string>, user?: { uid: number; gid: number }): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      APP_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'warn',
      BUILD_DIR: build,
      SQLITE_FILE: join(dir, `ok-${Math.random()}.db`),
      UPLOAD_DIR: join(dir, 'uploads'),
      OUTBOX_DIR: join(dir, 'outbox'),
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    ...user,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('start-up checks: one line naming the setting, exit 1', () => {
  it('a database file this user cannot write (SQLite opens it read-only without a word)', async () => {
    // The folder is writable (the WAL's files could be made): only the file is protected.
    const folder = join(dir, 'readonly');
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    const file = join(folder, 'visa.db');
    const sqlite = new SQLite(file);
    sqlite.exec('create table t (x)');
    sqlite.close();
    chmodSync(file, 0o444);
    // root writes whatever the mode says: the check runs as nobody then.
    const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    const { code, stderr } = await run({ SQLITE_FILE: file, UPLOAD_DIR: join(folder, 'uploads'), OUTBOX_DIR: join(folder, 'outbox') }, user);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `SQLITE_FILE: ${file} cannot be written (SQLITE_READONLY: attempt to write a readonly database); the file and its folder must be writable by this user`,
    ]);
  });

  it('an upload folder that cannot be created', async () => {
    const notAFolder = join(dir, 'a-file');
    writeFileSync(notAFolder, '');
    const { code, stderr } = await run({ UPLOAD_DIR: join(notAFolder, 'uploads') });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`^UPLOAD_DIR: cannot create or write ${notAFolder}/uploads \\(ENOTDIR`));
  });

  it('PostgreSQL that cannot be reached, named without its password', async () => {
    const port = await closedPort();
    const { code, stderr } = await run({ DATABASE_URL: `postgres://app:s3cret-pass@127.0.0.1:${port}/visa` });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `DATABASE_URL: cannot reach PostgreSQL at postgres://app:***@127.0.0.1:${port}/visa (connect ECONNREFUSED 127.0.0.1:${port})`,
    ]);
  });

  it('Redis that cannot be reached, named without its password', async () => {
    const port = await closedPort();
    const { code, stderr } = await run({ REDIS_URL: `redis://:s3cret-pass@127.0.0.1:${port}/2` });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`^REDIS_URL: cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}/2 \\(.*ECONNREFUSED`));
    expect(stderr).not.toContain('s3cret-pass');
  });

  it('no build', async () => {
    const { code, stderr } = await run({ BUILD_DIR: join(dir, 'no-build') });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`BUILD_DIR: ${join(dir, 'no-build')}/server/index.js is missing: run "npm run build" first (or "npm start").`);
  });
});

/** GET on its own connection: status and body. */
async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: await response.text() };
}

describe('graceful stop', () => {
  function server(drainMs: number) {
    const db = join(dir, `stop-${Math.random()}.db`);
    // The migrated template when there is one (no migrations to wait for); else main.ts migrates it.
    const template = inject('sqliteTemplate');
    if (template) copyFileSync(template, db);
    return startServer({
      BUILD_DIR: build,
      SQLITE_FILE: db,
      UPLOAD_DIR: join(dir, 'uploads'),
      OUTBOX_DIR: join(dir, 'outbox'),
      SHUTDOWN_DRAIN_MS: String(drainMs),
    });
  }

  it('SIGTERM: readyz 503 at once, serving on through the drain, a request in flight answered, then exit 0 and the port closed', async () => {
    const app = await server(1_500);
    expect((await get(app.port, '/readyz')).status).toBe(200);

    // A request in flight across the whole stop: its body arrives in two halves, the second after the drain.
    const body = JSON.stringify({ hello: 'x'.repeat(64) });
    let socket!: Socket;
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: app.port,
          method: 'POST',
          path: '/pay/notify/sandbox',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.on('socket', (s) => (socket = s));
      req.write(body.slice(0, 10));
    });
    await new Promise((resolve) => setTimeout(resolve, 200));

    const stoppedAt = Date.now();
    app.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await get(app.port, '/readyz')).toEqual({ status: 503, body: '{"status":"draining"}' });
    expect((await get(app.port, '/healthz')).status).toBe(200);
    expect((await get(app.port, '/assets/entry-AbC123.js')).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1_600));
    // After the drain: app.close() waits for the request in flight.
    socket.write(body.slice(10));
    const status = await inFlight;
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).not.toBe(503);

    expect(await app.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(1_500);
    await expect(fetch(`http://127.0.0.1:${app.port}/healthz`)).rejects.toThrow();
    expect(app.output()).toMatch(/"msg":"stopped"/);
  });

  it('a second signal during the drain exits at once (exit 1)', async () => {
    const app = await server(20_000);
    app.child.kill('SIGTERM');
    // The same stop fanned out (Ctrl-C through npm) is one signal: this one comes later.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const secondAt = Date.now();
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(1);
    expect(Date.now() - secondAt).toBeLessThan(2_000);
    expect(app.output()).toMatch(/second signal: exiting now/);
  });

  it('signals within a second of each other are one stop (Ctrl-C reaches the server from the terminal and through npm)', async () => {
    const app = await server(300);
    app.child.kill('SIGINT');
    app.child.kill('SIGINT');
    expect(await app.exited).toBe(0);
  });
});
