// /healthz, /readyz and app.startDraining() (issue 23): each readiness check
// failing on its own, against a real app on SQLite or PostgreSQL; Redis through
// a small fake whose answers the test controls (a real app cannot start on a
// Redis that is down: the replay store's first PING fails the start).
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../test-support/test-app.ts';
import { haveRedis, TEST_REDIS_URL } from '../test-support/redis.ts';
import { checkUploadDir, createReadinessCheck } from './health.ts';

const probe = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url });

describe('/healthz and /readyz on a migrated database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('healthz: 200 {"status":"ok"}, not cached', async () => {
    const answer = await probe(t, '/healthz');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ status: 'ok' });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('readyz: 200 with every check ok (no Redis configured: no redis check)', async () => {
    const answer = await probe(t, '/readyz');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', uploads: 'ok' } });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('the probes and /metrics are not in the API reference', () => {
    const paths = Object.keys((t.app.swagger() as { paths: Record<string, unknown> }).paths);
    expect(paths.filter((path) => ['/healthz', '/readyz', '/metrics'].includes(path))).toEqual([]);
  });

  it('readyz: 503 naming migrations when one the code knows is not applied', async () => {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(t.db);
    const last = rows[0]!.name;
    const { rows: saved } = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${last}`.execute(t.db);
    await sql`delete from kysely_migration where name = ${last}`.execute(t.db);
    try {
      const answer = await probe(t, '/readyz');
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', migrations: `missing 1: ${last}`, uploads: 'ok' },
      });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${saved[0]!.name}, ${saved[0]!.timestamp})`.execute(t.db);
    }
    expect((await probe(t, '/readyz')).statusCode).toBe(200);
  });

  it('after startDraining: readyz 503 {"status":"draining"} at once; healthz and a signed /www call still answer', async () => {
    t.app.startDraining();
    const answer = await probe(t, '/readyz');
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ status: 'draining' });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect((await probe(t, '/healthz')).statusCode).toBe(200);
    const call = await t.call('/www/sys_config_get');
    expect(call.status).toBe(200);
    expect(call.body.ret).toBe(0);
  });
});

describe('readyz: the upload folder', () => {
  it('503 naming uploads when UPLOAD_DIR is not a writable folder (here: a file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'visa-ready-'));
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    const testDb = await createTestDatabase();
    testDb.config.UPLOAD_DIR = file;
    const t = await createTestApp(testDb);
    try {
      const answer = await probe(t, '/readyz');
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: 'ok', uploads: 'unavailable' } });
      // No path, no error text in the answer.
      expect(answer.body).not.toContain(dir);
    } finally {
      await t.close(true);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a folder not made yet is fine when the nearest existing folder is writable (the first upload makes it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'visa-ready-'));
    try {
      await expect(checkUploadDir(join(dir, 'uploads', 'deeper'))).resolves.toBeUndefined();
      mkdirSync(join(dir, 'uploads'));
      await expect(checkUploadDir(join(dir, 'uploads'))).resolves.toBeUndefined();
      writeFileSync(join(dir, 'file'), 'x');
      await expect(checkUploadDir(join(dir, 'file', 'uploads'))).rejects.toThrow(/not a directory/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('readyz: a database never migrated, or one that hangs', () => {
  it('names migrations (its bookkeeping table does not exist)', async () => {
    const empty = openDatabase({ kind: 'sqlite', file: ':memory:' });
    try {
      const check = createReadinessCheck({ database: empty, uploads: { kind: 's3' } });
      expect(await check()).toMatchObject({
        ready: false,
        checks: { database: 'ok', migrations: 'unavailable', uploads: 'skipped (s3)' },
      });
    } finally {
      await empty.destroy();
    }
  });

  it('answers within its timeout when a dependency does not', async () => {
    const empty = openDatabase({ kind: 'sqlite', file: ':memory:' });
    try {
      const check = createReadinessCheck({ database: empty, uploads: { kind: 's3' }, redisPing: () => new Promise(() => {}), timeoutMs: 100 });
      const started = Date.now();
      const result = await check();
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(result.checks.redis).toBe('timeout');
      expect(result.ready).toBe(false);
    } finally {
      await empty.destroy();
    }
  });
});

/** A Redis that answers +PONG to every command while `mode` is 'up', nothing while 'silent'. */
async function fakeRedis() {
  const state = { mode: 'up' as 'up' | 'silent' };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk) => {
      if (state.mode !== 'up') return;
      // One reply per command: a command starts with a line "*<argument count>".
      const commands = chunk
        .toString('latin1')
        .split('\r\n')
        .filter((line) => /^\*\d+$/.test(line)).length;
      socket.write('+PONG\r\n'.repeat(commands));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    state,
    /** Stops listening and cuts every connection: the port is closed. */
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('readyz: Redis (REDIS_URL set), on the replay store connection', () => {
  it('ok while it answers; 503 naming redis when it stops answering (timeout) and when its port is closed', async () => {
    const redis = await fakeRedis();
    const testDb = await createTestDatabase();
    testDb.config.REDIS_URL = redis.url;
    const t = await createTestApp(testDb);
    try {
      let answer = await probe(t, '/readyz');
      expect(answer.statusCode).toBe(200);
      expect(answer.json().checks).toEqual({ database: 'ok', migrations: 'ok', uploads: 'ok', redis: 'ok' });

      redis.state.mode = 'silent';
      const started = Date.now();
      answer = await probe(t, '/readyz');
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: 'ok', uploads: 'ok', redis: 'timeout' } });

      await redis.stop();
      answer = await probe(t, '/readyz');
      expect(answer.statusCode).toBe(503);
      expect(answer.json().checks.redis).toBe('unavailable');
      // Names the check, never the URL.
      expect(answer.body).not.toContain('127.0.0.1');
    } finally {
      await t.close(true);
      await redis.stop().catch(() => {});
    }
  });

  it.skipIf(!haveRedis)('ok against the real local Redis', async () => {
    const testDb = await createTestDatabase();
    testDb.config.REDIS_URL = TEST_REDIS_URL;
    const t = await createTestApp(testDb);
    try {
      const answer = await probe(t, '/readyz');
      expect(answer.statusCode).toBe(200);
      expect(answer.json().checks.redis).toBe('ok');
    } finally {
      await t.close(true);
    }
  });
});
