// Request ids already used. Every app instance that shares the store refuses
// a replay, not only the one that saw the first request, and a restart keeps
// the ids of the whole window in which their X-Date is accepted (2 × the
// clock skew: 30 minutes). Three stores, one per deployment (decision 0016):
//   - Redis (REDIS_URL set): SET NX with that expiry, the ids of one turn in
//     one script call; Redis is made for this, and several instances on any
//     database share it.
//   - SQLite, the embedded default: a file of its own beside the database
//     (<SQLITE_FILE minus .db>.replay.db), written synchronously, all ids that
//     arrived in one event-loop turn in one short transaction. Its own file,
//     because the app database's write lock can be held across awaits by a
//     transaction (a synchronous write there could wait on the event loop it
//     blocks); processes sharing the file still decide through it.
//   - PostgreSQL without Redis: the table api_request_nonce, one multi-row
//     INSERT … ON CONFLICT DO NOTHING per event-loop turn.
// In each, the store decides atomically: of two copies of an id, one is new.
import { dirname } from 'node:path';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createClient } from '@redis/client';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface ReplayStore {
  /** true when the id was new and is now remembered; false for a replay. */
  remember(requestId: string, platform: string, at: number): Promise<boolean>;
  /** Forgets ids older than the window in which their X-Date is still accepted. */
  purgeBefore(at: number): Promise<void>;
  close(): Promise<void>;
}

interface Pending {
  requestId: string;
  platform: string;
  at: number;
  resolve(fresh: boolean): void;
  reject(error: unknown): void;
}

/** Queues the ids of one event-loop turn and hands them to `flush` together. */
function batchPerTurn(flush: (batch: Pending[]) => void): (requestId: string, platform: string, at: number) => Promise<boolean> {
  let queue: Pending[] = [];
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    flush(batch);
  };
  return (requestId, platform, at) =>
    new Promise<boolean>((resolve, reject) => {
      queue.push({ requestId, platform, at, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    });
}

/** The replay file of a SQLite database file: data/visa.db → data/visa.replay.db. */
export function replayFileOf(sqliteFile: string): string {
  return sqliteFile === ':memory:' ? ':memory:' : `${sqliteFile.replace(/\.(db|sqlite3?)$/, '')}.replay.db`;
}

/** Rows a purge deletes per statement: a long delete would hold the event loop. */
const PURGE_CHUNK = 5_000;

export function createSqliteReplayStore(file: string): ReplayStore {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new SQLite(file);
  // WAL, synchronous OFF: a commit is in the operating system's hands at once,
  // so it survives the process (a restart, a crash) but not a power cut, and
  // no write waits for the disk. busy_timeout lets another process's short
  // write finish first.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('busy_timeout = 5000');
  db.exec(`create table if not exists request_id (
    request_id text primary key,
    platform text not null,
    seen_at integer not null
  ) without rowid;
  create index if not exists request_id_seen_at on request_id (seen_at);`);
  const insert = db.prepare('insert or ignore into request_id (request_id, platform, seen_at) values (?, ?, ?)');
  const rememberAll = db.transaction((batch: Pending[]) => batch.map((item) => insert.run(item.requestId, item.platform, item.at).changes === 1));
  const purgeChunk = db.prepare(`delete from request_id where request_id in (select request_id from request_id where seen_at < ? limit ${PURGE_CHUNK})`);

  return {
    remember: batchPerTurn((batch) => {
      try {
        // A copy of an id within the batch is ignored by the insert: a replay.
        // One id alone is one statement, atomic by itself: without BEGIN and
        // COMMIT around it SQLite runs two statements fewer for the same commit.
        const fresh = batch.length === 1 ? [insert.run(batch[0]!.requestId, batch[0]!.platform, batch[0]!.at).changes === 1] : rememberAll(batch);
        batch.forEach((item, i) => item.resolve(fresh[i]!));
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }),
    async purgeBefore(at) {
      while (purgeChunk.run(at).changes === PURGE_CHUNK) await new Promise((resolve) => setImmediate(resolve));
    },
    async close() {
      db.close();
    },
  };
}

/** Rows per statement: 3 parameters each stays far below every driver's limit. */
const MAX_BATCH = 500;

export function createDatabaseReplayStore(db: Kysely<Database>): ReplayStore {
  async function flush(batch: Pending[]): Promise<void> {
    const firstOfEach = new Map<string, Pending>();
    for (const item of batch) if (!firstOfEach.has(item.requestId)) firstOfEach.set(item.requestId, item);
    try {
      const rows = await db
        .insertInto('api_request_nonce')
        .values([...firstOfEach.values()].map((item) => ({ request_id: item.requestId, platform: item.platform, seen_at: item.at })))
        .onConflict((oc) => oc.column('request_id').doNothing())
        .returning('request_id')
        .execute();
      const inserted = new Set(rows.map((row) => row.request_id));
      // A copy of an id within the same batch is a replay of its first copy.
      for (const item of batch) item.resolve(inserted.has(item.requestId) && firstOfEach.get(item.requestId) === item);
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }
  return {
    remember: batchPerTurn((batch) => {
      for (let i = 0; i < batch.length; i += MAX_BATCH) void flush(batch.slice(i, i + MAX_BATCH));
    }),
    async purgeBefore(at) {
      await db.deleteFrom('api_request_nonce').where('seen_at', '<', at).execute();
    },
    async close() {},
  };
}

/** SET NX PX for each key; 1 where the key was new. Redis runs a script atomically. */
const REMEMBER_ALL = `local fresh = {}
for i, key in ipairs(KEYS) do
  fresh[i] = redis.call('SET', key, '1', 'NX', 'PX', ARGV[1]) and 1 or 0
end
return fresh`;

/**
 * Redis: SET key 1 NX PX window for each id, all the ids of one event-loop
 * turn in one script call (one command instead of one per request). Keys
 * expire by themselves after the window, so there is nothing to purge.
 */
export async function createRedisReplayStore(url: string, windowMs: number): Promise<ReplayStore> {
  const client = createClient({ url });
  client.on('error', () => {
    // Reconnects by itself; a command that fails meanwhile rejects, and the call is refused.
  });
  await client.connect();
  // EVALSHA sends the script's hash, not its text, each turn; a Redis that
  // does not know the script (restarted, SCRIPT FLUSH) answers NOSCRIPT, and
  // EVAL then runs it and loads it again. Either way Redis runs it atomically.
  const sha = createHash('sha1').update(REMEMBER_ALL).digest('hex');
  const run = async (keys: string[], args: string[]) => {
    try {
      return await client.evalSha(sha, { keys, arguments: args });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(REMEMBER_ALL, { keys, arguments: args });
    }
  };
  return {
    remember: batchPerTurn((batch) => {
      run(
        batch.map((item) => `replay:${item.platform}:${item.requestId}`),
        [String(windowMs)],
      )
        .then((reply) => {
          // A copy of an id within the batch finds the key its first copy just set.
          const fresh = reply as number[];
          batch.forEach((item, i) => item.resolve(fresh[i] === 1));
        })
        .catch((error: unknown) => {
          for (const item of batch) item.reject(error);
        });
    }),
    async purgeBefore() {},
    async close() {
      await client.close();
    },
  };
}
