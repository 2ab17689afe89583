// Start-up checks (issue 23): what the server needs to write to or reach, tried
// before it listens, so that a bad setting stops the start with one line naming
// it instead of a server that answers 500 to every login (a read-only SQLite
// file: SQLite opens it anyway and fails at the first write) or fails the first
// upload (an UPLOAD_DIR it cannot write). server/main.ts prints each line and
// exits 1. URLs are shown without their password.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { AppConfig } from '../config.ts';
import { openRedisConnection, RedisReplyError } from './redis-connection.ts';

/** How long PostgreSQL and Redis get to answer at start. */
export const STARTUP_CHECK_TIMEOUT_MS = 5_000;

/** A URL as it may be shown: the password replaced by ***. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

function reason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reason(error.errors[0]);
  const { code, message } = error as { code?: string; message?: string };
  const text = message || String(error);
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s (${what})`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The SQLite file can be opened and written: a write of the header's
 * user_version (to its own value) in a transaction rolled back. Opening alone
 * proves nothing: SQLite opens a write-protected file read-only without a word,
 * and `begin immediate` succeeds on it too.
 */
export function checkSqlite(file: string): string | null {
  if (file === ':memory:') return null;
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    return `SQLITE_FILE: cannot create the folder ${dirname(file)} (${reason(error)})`;
  }
  let sqlite: SQLite.Database;
  try {
    sqlite = new SQLite(file, { timeout: STARTUP_CHECK_TIMEOUT_MS });
  } catch (error) {
    return `SQLITE_FILE: cannot open ${file} (${reason(error)}); the file and its folder must be writable by this user`;
  }
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('begin immediate');
    try {
      const version = Number(sqlite.pragma('user_version', { simple: true }));
      sqlite.pragma(`user_version = ${version}`);
    } finally {
      sqlite.exec('rollback');
    }
    return null;
  } catch (error) {
    return `SQLITE_FILE: ${file} cannot be written (${reason(error)}); the file and its folder must be writable by this user`;
  } finally {
    sqlite.close();
  }
}

/** A folder the server writes files to: created if missing, then a probe file written and removed. */
export function checkWritableFolder(variable: string, dir: string): string | null {
  const probe = join(dir, `.write-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, 'probe');
    rmSync(probe);
    return null;
  } catch (error) {
    return `${variable}: cannot create or write ${dir} (${reason(error)})`;
  }
}

/** PostgreSQL answers `select 1` within the timeout. */
export async function checkPostgres(url: string, timeoutMs = STARTUP_CHECK_TIMEOUT_MS): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  // A connection that fails after the check (or during end) must not end the process.
  client.on('error', () => {});
  try {
    await withTimeout(
      client.connect().then(() => client.query('select 1')),
      timeoutMs + 500,
      'PostgreSQL',
    );
    return null;
  } catch (error) {
    return `DATABASE_URL: cannot reach PostgreSQL at ${withoutPassword(url)} (${reason(error)})`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Redis answers PING within the timeout (the login and database number of the URL included). */
export async function checkRedis(url: string, timeoutMs = STARTUP_CHECK_TIMEOUT_MS): Promise<string | null> {
  let connection: Awaited<ReturnType<typeof openRedisConnection>> | undefined;
  try {
    await withTimeout(
      (async () => {
        connection = await openRedisConnection(url, { timeoutMs, name: 'visa-startup-check' });
        const [reply] = await connection.send([['PING']]);
        if (reply instanceof RedisReplyError) throw reply;
      })(),
      timeoutMs + 500,
      'Redis',
    );
    return null;
  } catch (error) {
    return `REDIS_URL: cannot reach Redis at ${withoutPassword(url)} (${reason(error)})`;
  } finally {
    await connection?.close().catch(() => {});
  }
}

/** Every check the configuration calls for; one line per problem (none: start). */
export async function startupChecks(config: AppConfig): Promise<string[]> {
  const problems: Array<string | null> = [];
  if (config.database.kind === 'sqlite') problems.push(checkSqlite(config.database.file));
  // Uploads go to UPLOAD_DIR, or are spooled to the OS temp folder before their PUT to the bucket (storage-s3.ts).
  problems.push(
    config.S3_BUCKET ? checkWritableFolder('TMPDIR (S3 uploads are spooled there)', tmpdir()) : checkWritableFolder('UPLOAD_DIR', config.UPLOAD_DIR),
  );
  if (!config.SMTP_URL) problems.push(checkWritableFolder('OUTBOX_DIR', config.OUTBOX_DIR));
  const [postgres, redis] = await Promise.all([
    config.database.kind === 'postgres' ? checkPostgres(config.database.url) : null,
    config.REDIS_URL ? checkRedis(config.REDIS_URL) : null,
  ]);
  problems.push(postgres, redis);
  return problems.filter((line): line is string => line !== null);
}
