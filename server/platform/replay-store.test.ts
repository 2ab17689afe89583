// The replay stores (decision 0016): an id is new once, for every instance
// sharing the store, also across a restart and within one burst of copies;
// ids are forgotten only after the window. Redis is the local server
// (TEST_REDIS_URL, default redis://127.0.0.1:6379); the app-level checks on
// SQLite and PostgreSQL are in signature.test.ts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { haveRedis, TEST_REDIS_URL, warnIfNoRedis } from '../test-support/redis.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { newRequestId } from '../../common/signing.ts';
import { buildApp } from '../app.ts';
import { createTestDatabase, signedHeaders, testConfig } from '../test-support/test-app.ts';
import { openRedisConnection } from './redis-connection.ts';
import {
  createDatabaseReplayStore,
  createLogReplayStore,
  createRedisReplayStore,
  replayConnectionName,
  createSqliteReplayStore,
  replayDirOf,
  type ReplayStore,
} from './replay-store.ts';

const REDIS_URL = TEST_REDIS_URL;
warnIfNoRedis('Redis replay store tests');
const WINDOW_MS = 30 * 60_000;

const dir = mkdtempSync(join(tmpdir(), 'visa-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Kind {
  name: string;
  skip: boolean;
  open(): Promise<ReplayStore>;
}
let files = 0;
const kinds: Kind[] = [
  {
    name: 'append-only log (embedded default)',
    skip: false,
    open: async () => createLogReplayStore(join(dir, `log-${files}`)),
  },
  {
    name: 'SQLite file (the default before the log)',
    skip: false,
    // Each test gets its own file; open() again on it is a second instance or a restart.
    open: async () => createSqliteReplayStore(join(dir, `replay-${files}.replay.db`)),
  },
  { name: 'Redis', skip: !haveRedis, open: () => createRedisReplayStore(REDIS_URL, WINDOW_MS) },
];

describe.each(kinds)('replay store: $name', ({ skip, open }) => {
  const test = skip ? it.skip : it;

  test('an id is new once; two instances and a restart agree', async () => {
    files += 1;
    const first = await open();
    const second = await open();
    const now = Date.now();
    const id = newRequestId();
    expect(await first.remember(id, '4', now)).toBe(true);
    expect(await first.remember(id, '4', now)).toBe(false);
    expect(await second.remember(id, '4', now)).toBe(false);
    await first.close();
    const restarted = await open();
    expect(await restarted.remember(id, '4', now + 60_000)).toBe(false);
    expect(await restarted.remember(newRequestId(), '4', now)).toBe(true);
    await second.close();
    await restarted.close();
  });

  test('of many simultaneous copies on two instances exactly one is new', async () => {
    files += 1;
    const a = await open();
    const b = await open();
    const ids = Array.from({ length: 50 }, () => newRequestId());
    const results = await Promise.all(ids.flatMap((id) => [a, b, a, b].map((store) => store.remember(id, '4', Date.now()).then((fresh) => ({ id, fresh })))));
    for (const id of ids) expect(results.filter((r) => r.id === id && r.fresh)).toHaveLength(1);
    await a.close();
    await b.close();
  });
});

describe('replay store: SQLite purge', () => {
  it('forgets only ids older than the window, in chunks', async () => {
    const store = createSqliteReplayStore(join(dir, 'purge.replay.db'));
    const now = Date.now();
    const old = Array.from({ length: 12_000 }, () => newRequestId());
    await Promise.all(old.map((id) => store.remember(id, '4', now - WINDOW_MS - 1)));
    const recent = newRequestId();
    await store.remember(recent, '4', now - 1000);
    await store.purgeBefore(now - WINDOW_MS);
    expect(await store.remember(old[0]!, '4', now)).toBe(true);
    expect(await store.remember(recent, '4', now)).toBe(false);
    await store.close();
  });
});

describe('replay store: a write that fails', () => {
  it('refuses every call of its batch on the SQLite store (none is taken as new)', async () => {
    const store = createSqliteReplayStore(':memory:');
    await store.close(); // every write now throws
    const calls = [newRequestId(), newRequestId()].map((id) => store.remember(id, '4', Date.now()));
    for (const call of calls) await expect(call).rejects.toThrow();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'refuses every call of its batch on PostgreSQL’s store (PostgreSQL only: the store serves no other database)',
    async () => {
      const testDb = await createTestDatabase();
      const handle = testDb.open();
      try {
        const store = createDatabaseReplayStore(handle.db);
        expect(await store.remember(newRequestId(), '4', Date.now())).toBe(true);
        await sql`drop table api_request_nonce`.execute(handle.db); // every insert now fails
        const calls = [newRequestId(), newRequestId()].map((id) => store.remember(id, '4', Date.now()));
        for (const call of calls) await expect(call).rejects.toThrow(/api_request_nonce/);
      } finally {
        await handle.destroy();
        await testDb.drop();
      }
    },
  );
});

describe('replay store: append-only log', () => {
  it('keeps its files beside the database file', () => {
    expect(replayDirOf('data/visa.db')).toBe('data/visa.replay');
  });

  it('keeps the ids of the previous window after a rollover, forgets older files', async () => {
    const logDir = join(dir, 'rollover');
    const clock = { now: 10 * WINDOW_MS + 5 };
    const store = createLogReplayStore(logDir, { windowMs: WINDOW_MS, now: () => clock.now });
    const id = newRequestId();
    const untouched = newRequestId();
    expect(await store.remember(id, '4', clock.now)).toBe(true);
    expect(await store.remember(untouched, '4', clock.now)).toBe(true);
    clock.now += WINDOW_MS;
    expect(await store.remember(id, '4', clock.now)).toBe(false);
    // Another instance started in the new window knows it too (it reads both files).
    const other = createLogReplayStore(logDir, { windowMs: WINDOW_MS, now: () => clock.now });
    expect(await other.remember(id, '4', clock.now)).toBe(false);
    await other.close();
    clock.now += WINDOW_MS;
    // Two windows on, its X-Date can no longer pass the date check: forgotten, its file gone.
    // (The replayed copy of \`id\` above was logged in window 11 too, so it is still known.)
    expect(await store.remember(untouched, '4', clock.now)).toBe(true);
    expect(await store.remember(id, '4', clock.now)).toBe(false);
    expect(existsSync(join(logDir, '10.log'))).toBe(false);
    expect(readdirSync(logDir).sort()).toEqual(['11.log', '12.log']);
    await store.close();
  });

  it('decides an id written in a sealed window again in the next one', async () => {
    const logDir = join(dir, 'sealed');
    const late = { now: 20 * WINDOW_MS - 1 };
    const early = { now: 20 * WINDOW_MS };
    // One process still in window 19 while another moved to 20 (and sealed 19).
    const behind = createLogReplayStore(logDir, { windowMs: WINDOW_MS, now: () => late.now });
    const ahead = createLogReplayStore(logDir, { windowMs: WINDOW_MS, now: () => early.now });
    const id = newRequestId();
    expect(await ahead.remember(id, '4', early.now)).toBe(true);
    expect(await behind.remember(id, '4', late.now)).toBe(false);
    const other = newRequestId();
    expect(await behind.remember(other, '4', late.now)).toBe(true);
    expect(await ahead.remember(other, '4', early.now)).toBe(false);
    await behind.close();
    await ahead.close();
  });

  it('of the same ids raced by four processes exactly one copy is new, and a restart remembers them', async () => {
    const logDir = join(dir, 'processes');
    const ids = Array.from({ length: 5000 }, () => newRequestId());
    // Each child opens the store, waits for the common start time, then
    // remembers every id (two copies each) in small turns, so that the writes
    // of the four processes interleave, and prints the ids it found new.
    const startAt = Date.now() + 8000;
    const script = join(dir, 'race.mjs');
    writeFileSync(
      script,
      `import { createLogReplayStore } from ${JSON.stringify(new URL('./replay-store.ts', import.meta.url).pathname)};
      const store = createLogReplayStore(${JSON.stringify(logDir)});
      const ids = ${JSON.stringify(ids)};
      while (Date.now() < ${startAt});
      const fresh = [];
      for (let i = 0; i < ids.length; i += 3) {
        const turn = ids.slice(i, i + 3);
        const results = await Promise.all(turn.flatMap((id) => [id, id].map((copy) => store.remember(copy, '4', Date.now()))));
        turn.forEach((id, j) => { if (results[2 * j]) fresh.push(id); if (results[2 * j + 1]) fresh.push(id); });
      }
      await store.close();
      process.stdout.write(JSON.stringify(fresh) + '\\n');`,
    );
    const outputs = Array.from({ length: 4 }, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      await once(child, 'exit');
      return text;
    });
    const fresh = (await Promise.all(outputs)).flatMap((text) => JSON.parse(text.trim().split('\n').at(-1)!) as string[]);
    expect(fresh.sort()).toEqual([...ids].sort());
    const restarted = createLogReplayStore(logDir);
    for (const id of ids.slice(0, 20)) expect(await restarted.remember(id, '4', Date.now())).toBe(false);
    await restarted.close();
  }, 60_000);
});

describe.skipIf(!haveRedis)('replay store: Redis that drops the connection', () => {
  it('refuses the calls whose answer was lost, accepts none twice, and goes on over a new connection', async () => {
    const store = await createRedisReplayStore(REDIS_URL, WINDOW_MS);
    const admin = await openRedisConnection(REDIS_URL);
    const before = newRequestId();
    expect(await store.remember(before, '4', Date.now())).toBe(true);
    const clients = (await admin.send([['CLIENT', 'LIST']]))[0] as string;
    const storeIds = [...clients.matchAll(/^id=(\d+) .*name=(\S+)/gm)].filter((m) => m[2] === replayConnectionName()).map((m) => m[1]!);
    expect(storeIds.length).toBeGreaterThan(0);
    // Kill the store's connection while a burst of ids is on its way.
    const ids = Array.from({ length: 200 }, () => newRequestId());
    const burst = ids.map((id) =>
      store.remember(id, '4', Date.now()).then(
        (fresh) => fresh,
        () => 'refused' as const,
      ),
    );
    await admin.send(storeIds.map((id) => ['CLIENT', 'KILL', 'ID', id]));
    const outcomes = await Promise.all(burst);
    // Each id of the burst is now either new once (its SET landed and was answered) or refused;
    // asking again, after the loss, never finds a landed id new.
    for (const [i, id] of ids.entries()) {
      const again = await store.remember(id, '4', Date.now());
      if (outcomes[i] === true) expect(again).toBe(false);
      expect(outcomes[i]).not.toBe(false);
    }
    expect(await store.remember(before, '4', Date.now())).toBe(false);
    await admin.close();
    await store.close();
  });
});

describe.skipIf(!haveRedis)('two app instances sharing Redis', () => {
  it('refuse a replay across them', async () => {
    const testDb = await createTestDatabase();
    const config = { ...testConfig({ REDIS_URL }), database: testDb.config.database };
    const handles = [testDb.open(), testDb.open()];
    const apps = await Promise.all(handles.map((database) => buildApp({ config, database }).then(({ app }) => app)));
    try {
      const headers = signedHeaders({ now: Date.now() });
      const first = await apps[0]!.inject({ method: 'POST', url: '/www/sys_config_get', headers, payload: '{}' });
      expect(first.json().ret).toBe(0);
      const replay = await apps[1]!.inject({ method: 'POST', url: '/www/sys_config_get', headers, payload: '{}' });
      expect(replay.json()).toMatchObject({ ret: 1105, msg: '重复的请求' });
    } finally {
      for (const app of apps) await app.close();
      for (const handle of handles) await handle.destroy();
      await testDb.drop();
    }
  });
});
