// Request ids already used. Every app instance that shares the store refuses
// a replay, not only the one that saw the first request, and a restart keeps
// the ids of the whole window in which their X-Date is accepted (2 × the
// clock skew: 30 minutes). Three stores, one per deployment (decision 0016):
//   - Redis (REDIS_URL set): SET NX with that expiry, the ids of one turn in
//     one write over our own small client (redis-connection.ts); Redis is made
//     for this, and several instances on any database share it.
//   - SQLite database, the embedded default: an append-only log of its own
//     beside the database (<SQLITE_FILE minus .db>.replay/<window>.log), each
//     turn's ids in one O_APPEND write; the file's order decides, first copy
//     wins (createLogReplayStore below). Its own files, not the app database:
//     that database's write lock can be held across awaits by a transaction (a
//     synchronous write there could wait on the event loop it blocks). An
//     in-memory database gets an in-memory SQLite store (createSqliteReplayStore,
//     which with a file was the default before the log, decision 0016).
//   - PostgreSQL without Redis: the table api_request_nonce, one multi-row
//     INSERT … ON CONFLICT DO NOTHING per event-loop turn.
// In each, the store decides atomically: of two copies of an id, one is new.
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { prepared } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { openRedisConnection, RedisReplyError } from './redis-connection.ts';
import { type TurnBatchLimits, turnBatcher, type Waiting } from './turn-batch.ts';

export interface ReplayStore {
  /** true when the id was new and is now remembered; false for a replay. */
  remember(requestId: string, platform: string, at: number): Promise<boolean>;
  /** Forgets ids older than the window in which their X-Date is still accepted. */
  purgeBefore(at: number): Promise<void>;
  /** Redis only: a PING on the store's own connection (readiness, server/platform/health.ts). */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

/** One use of a request id, as a store is asked to remember it. */
export interface RequestIdUse {
  requestId: string;
  platform: string;
  at: number;
}

export type Pending = Waiting<RequestIdUse, boolean>;

/**
 * A store's remember from its flush of one turn's ids (turn-batch.ts; exported
 * for bench:replay-turn's floor). A network store caps the batches out at once,
 * so that under load a batch carries several turns' ids.
 */
export function rememberPerTurn(flush: (batch: Pending[]) => void | Promise<void>, limits?: TurnBatchLimits): ReplayStore['remember'] {
  const remember = turnBatcher(flush, limits);
  return (requestId, platform, at) => remember({ requestId, platform, at });
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
  const rememberAll = db.transaction((batch: Pending[]) => batch.map(({ input }) => insert.run(input.requestId, input.platform, input.at).changes === 1));
  const purgeChunk = db.prepare(`delete from request_id where request_id in (select request_id from request_id where seen_at < ? limit ${PURGE_CHUNK})`);

  return {
    // A failed write fails the batch's calls (turn-batch.ts).
    remember: rememberPerTurn((batch) => {
      // A copy of an id within the batch is ignored by the insert: a replay.
      // One id alone is one statement, atomic by itself: without BEGIN and
      // COMMIT around it SQLite runs two statements fewer for the same commit.
      const only = batch.length === 1 ? batch[0]!.input : undefined;
      const fresh = only ? [insert.run(only.requestId, only.platform, only.at).changes === 1] : rememberAll(batch);
      batch.forEach((item, i) => item.resolve(fresh[i]!));
    }),
    async purgeBefore(at) {
      while (purgeChunk.run(at).changes === PURGE_CHUNK) await new Promise((resolve) => setImmediate(resolve));
    },
    async close() {
      db.close();
    },
  };
}

/** The log store's directory of a SQLite database file: data/visa.db → data/visa.replay/. */
export function replayDirOf(sqliteFile: string): string {
  return `${sqliteFile.replace(/\.(db|sqlite3?)$/, '')}.replay`;
}

interface Segment {
  window: number;
  fd: number;
  /** Bytes read and applied so far: always the end of a complete line. */
  end: number;
  /** A seal line was read: records after it are void (decision 0016, log store). */
  sealed: boolean;
}

const SEAL = 'sealed';
/** Records per write(): one write keeps a batch atomic and contiguous in the file. */
const MAX_RECORDS_PER_WRITE = 1000;

/**
 * The embedded default (decision 0016, "log store"): append-only files, one
 * per window of `windowMs` (2 × the signature's skew), `<dir>/<window>.log`,
 * the current and the previous one kept. A line is `<writer tag> <id>\n`.
 *
 * Why it is exact, across processes too: every write is opened O_APPEND, so
 * the kernel puts each write() whole at the file's end under the inode's lock:
 * the file is one total order of all writers' records. Each process applies
 * the same rule to that order: an id is fresh where it appears first. A turn
 * writes its ids with one write(), then learns the file's size (fstat) and
 * reads every byte it has not read yet up to there, which includes its own
 * records and everything before them; so it knows all that precedes its
 * records and decides them as every other reader would. When the size is
 * exactly its last read end plus its own bytes, nobody else wrote in between
 * and the read is skipped (the fast path: one write, one fstat per turn).
 * A write() that returned is in the page cache: it survives the process (a
 * crash, a restart), not a power cut, like SQLite with synchronous = OFF.
 *
 * Windows: the current window follows the clock. An id may come again in the
 * next window, so both live segments feed the set of known ids. A process that
 * moves to a new window first appends a seal line to the old segment, then
 * reads it to its end: records after the first seal count for nobody, and a
 * process that finds its own records after a seal writes them again in the
 * next window. So every valid record of the old segment is known to whoever
 * decides in the new one. An id recorded two windows ago is older than 2 ×
 * skew: its X-Date can no longer pass the date check, so that file is deleted.
 */
export function createLogReplayStore(dir: string, options: { windowMs?: number; now?: () => number } = {}): ReplayStore {
  const windowMs = options.windowMs ?? 30 * 60_000;
  const now = options.now ?? Date.now;
  mkdirSync(dir, { recursive: true });
  // Per store, not per process: two stores of one process must tell their records apart.
  const tag = randomBytes(8).toString('hex');
  let known = new Set<string>();
  let previous: Segment | undefined;
  let current: Segment | undefined;

  const open = (window: number): Segment => ({ window, fd: openSync(join(dir, `${window}.log`), 'a+'), end: 0, sealed: false });
  const close = (segment: Segment | undefined) => segment && closeSync(segment.fd);

  /**
   * Reads `segment` from its read end to `size` and applies complete lines in
   * file order; a line of this store's tag is handed to `own` with whether its
   * id was new at that place. A trailing partial line is left for later.
   */
  function readUpTo(segment: Segment, size: number, own?: (id: string, fresh: boolean, afterSeal: boolean) => void): void {
    if (size <= segment.end) return;
    const bytes = Buffer.allocUnsafe(size - segment.end);
    const got = readSync(segment.fd, bytes, 0, bytes.length, segment.end);
    const text = bytes.toString('latin1', 0, got);
    const complete = text.lastIndexOf('\n') + 1;
    let start = 0;
    while (start < complete) {
      const stop = text.indexOf('\n', start);
      const line = text.slice(start, stop);
      start = stop + 1;
      if (line === SEAL) {
        segment.sealed = true;
        continue;
      }
      const space = line.indexOf(' ');
      const id = line.slice(space + 1);
      const mine = own !== undefined && line.slice(0, space) === tag;
      if (segment.sealed) {
        if (mine) own(id, false, true);
        continue;
      }
      const fresh = !known.has(id);
      if (fresh) known.add(id);
      if (mine) own(id, fresh, false);
    }
    segment.end += complete;
  }

  /** Moves to `window`: seals and reads the previous segment, reads the current one, deletes older files. */
  function enter(window: number): void {
    close(previous);
    close(current);
    known = new Set();
    previous = open(window - 1);
    writeSync(previous.fd, `${SEAL}\n`);
    readUpTo(previous, fstatSync(previous.fd).size);
    current = open(window);
    readUpTo(current, fstatSync(current.fd).size);
    for (const name of readdirSync(dir)) {
      const match = /^(-?\d+)\.log$/.exec(name);
      if (match && Number(match[1]) < window - 1) rmSync(join(dir, name), { force: true });
    }
  }

  /** Writes the ids in one write() and returns, in order, whether each was new; undefined when they landed after a seal. */
  function append(ids: string[]): boolean[] | undefined {
    const segment = current!;
    const record = Buffer.from(ids.map((id) => `${tag} ${id}\n`).join(''), 'latin1');
    const written = writeSync(segment.fd, record);
    if (written !== record.length) throw new Error(`replay log: short write (${written} of ${record.length} bytes)`);
    const size = fstatSync(segment.fd).size;
    const fresh: boolean[] = [];
    if (size === segment.end + record.length && !segment.sealed) {
      // Nobody wrote since our last read: the set knows every record before ours.
      for (const id of ids) {
        const isNew = !known.has(id);
        if (isNew) known.add(id);
        fresh.push(isNew);
      }
      segment.end = size;
      return fresh;
    }
    let voided = false;
    readUpTo(segment, size, (_id, isNew, afterSeal) => {
      voided ||= afterSeal;
      fresh.push(isNew);
    });
    if (fresh.length !== ids.length) throw new Error('replay log: own records not found after the write');
    return voided ? undefined : fresh;
  }

  function decide(ids: string[]): boolean[] {
    for (;;) {
      const window = Math.floor(now() / windowMs);
      if (current === undefined || window > current.window) enter(window);
      const fresh = append(ids);
      if (fresh) return fresh;
      // Our records came after another process sealed this segment: they count
      // for nobody; write them again in the next window.
      enter(current!.window + 1);
    }
  }

  enter(Math.floor(now() / windowMs));
  return {
    // A failed write fails the calls it had not answered yet (turn-batch.ts).
    remember: rememberPerTurn((batch) => {
      // A line holds one id: an id with white space could forge lines. The
      // signature check lets [a-z0-9]{32} through only; anything else is refused here.
      const valid = batch.filter((item) => (/^\S+$/.test(item.input.requestId) ? true : (item.resolve(false), false)));
      for (let i = 0; i < valid.length; i += MAX_RECORDS_PER_WRITE) {
        const part = valid.slice(i, i + MAX_RECORDS_PER_WRITE);
        const fresh = decide(part.map((item) => item.input.requestId));
        part.forEach((item, j) => item.resolve(fresh[j]!));
      }
    }),
    // Files older than the previous window are deleted when the window moves.
    async purgeBefore() {},
    async close() {
      close(previous);
      close(current);
      previous = current = undefined;
    },
  };
}

/** Rows per statement: 3 parameters each stays far below every driver's limit. */
const MAX_BATCH = 500;

/** PostgreSQL's replay store (SQLite has the log store above, Redis its own). */
export function createDatabaseReplayStore(db: Kysely<Database>): ReplayStore {
  /** A failed insert fails the batch's calls (turn-batch.ts). */
  async function flush(batch: Pending[]): Promise<void> {
    const firstOfEach = new Map<string, Pending>();
    for (const item of batch) if (!firstOfEach.has(item.input.requestId)) firstOfEach.set(item.input.requestId, item);
    // One statement text whatever the batch's size (arrays, not a row of values each), so that
    // PostgreSQL keeps it prepared (database.ts): this store serves PostgreSQL only.
    const items = [...firstOfEach.values()];
    const { rows } = await sql<{ request_id: string }>`insert into api_request_nonce (request_id, platform, seen_at)
      select * from unnest(${items.map((item) => item.input.requestId)}::text[], ${items.map((item) => item.input.platform)}::text[], ${items.map((item) => item.input.at)}::bigint[])
      on conflict (request_id) do nothing
      returning request_id ${prepared}`.execute(db);
    const inserted = new Set(rows.map((row) => row.request_id));
    // A copy of an id within the same batch is a replay of its first copy.
    for (const item of batch) item.resolve(inserted.has(item.input.requestId) && firstOfEach.get(item.input.requestId) === item);
  }
  return {
    remember: rememberPerTurn(flush, { maxBatch: MAX_BATCH }),
    async purgeBefore(at) {
      await db.deleteFrom('api_request_nonce').where('seen_at', '<', at).execute();
    },
    async close() {},
  };
}

/** Batches of SETs out at once on the replay store's connection (decision 0016, "Redis client"). */
const REDIS_BATCHES_IN_FLIGHT = 2;

/** The Redis key of a used request id (bench:api deletes its own by it). */
export const replayKey = (platform: string, requestId: string) => `replay:${platform}:${requestId}`;

/** The replay store's name in Redis's CLIENT LIST: which process holds the connection. */
export const replayConnectionName = () => `visa-replay:${process.pid}`;

/**
 * Redis: SET key 1 NX PX window for each id, the ids of one event-loop turn
 * in one write (one round trip instead of one per request). Each SET NX is
 * atomic in Redis, and Redis runs a connection's commands in order, so of two
 * copies of an id, in one batch or from two instances, exactly one finds the
 * key absent. Keys expire by themselves after the window: nothing to purge.
 */
export async function createRedisReplayStore(url: string, windowMs: number): Promise<ReplayStore> {
  const redis = await openRedisConnection(url, { name: replayConnectionName() });
  const expiry = String(windowMs);
  return {
    // A lost connection fails the batch's calls (turn-batch.ts).
    remember: rememberPerTurn(
      (batch) =>
        redis.send(batch.map((item) => ['SET', replayKey(item.input.platform, item.input.requestId), '1', 'NX', 'PX', expiry])).then((replies) =>
          batch.forEach((item, i) => {
            const reply = replies[i];
            // OK: the key was absent and is set now; null: it was there, a replay.
            if (reply instanceof RedisReplyError) item.reject(reply);
            else item.resolve(reply === 'OK');
          }),
        ),
      // Two out at once: one being answered while the next is written (bench:api, decision 0016).
      { maxInFlight: REDIS_BATCHES_IN_FLIGHT },
    ),
    async purgeBefore() {},
    async ping() {
      const [reply] = await redis.send([['PING']]);
      if (reply instanceof RedisReplyError) throw reply;
    },
    async close() {
      await redis.close();
    },
  };
}
