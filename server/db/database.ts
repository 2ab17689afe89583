// One Kysely factory for both databases: SQLite (embedded default) and
// PostgreSQL (when DATABASE_URL is set).
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  sql,
} from 'kysely';
import pg from 'pg';
import type { AppConfig } from '../config.ts';
import { withAfterCommit } from './after-commit.ts';
import type { Database } from './schema.ts';

// int8 (bigint) columns hold epoch milliseconds, well inside Number's safe range.
pg.types.setTypeParser(20, (value) => Number(value));

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** PostgreSQL schema holding the tables (and the migration bookkeeping). */
  schema?: string;
  /** The SQLite file (absent for PostgreSQL). */
  file?: string;
  /** PostgreSQL's connection pool, read by /metrics (absent for SQLite: one connection, nothing pooled). */
  pool?: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL schema to use instead of public (the tests isolate themselves this way). */
  pgSchema?: string;
  poolSize?: number;
}

export function openDatabase(config: AppConfig['database'], options: DatabaseOptions = {}): DatabaseHandle {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({
      Client: PreparingClient,
      connectionString: config.url,
      max: options.poolSize ?? 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // An idle connection the server ends (a restart, an administrator, a dropped test database)
    // is an 'error' event on the pool; without a listener Node would end the whole process.
    // The pool drops that connection and opens another for the next query.
    pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
    // Drivers wrapped for afterCommit() (after-commit.ts): callbacks run once a transaction committed.
    const db = new Kysely<Database>({ dialect: withAfterCommit(new PostgresDialect({ pool })) });
    return { db, kind: 'postgres', schema: options.pgSchema ?? 'public', pool, destroy: () => db.destroy() };
  }
  if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
  const sqlite = new SQLite(config.file);
  // WAL lets readers run beside the single writer; busy_timeout makes a second
  // process wait for the write lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: withAfterCommit(new WriteLockFirstSqliteDialect({ database: reusingStatements(sqlite) })) });
  return { db, kind: 'sqlite', file: config.file, destroy: () => db.destroy() };
}

/**
 * The busiest statements (order_create's, bench:order) end with this comment
 * and PostgreSQL keeps them prepared on each connection: parsing and planning
 * them anew was most of PostgreSQL's CPU per order. Only statements that fit:
 * their plan does not depend on the values (key lookups and inserts; the
 * queues' partial indexes need the status to be known: decision 0028), they
 * name their columns (a migration that adds columns leaves their result type
 * alone; docs/deploy.md forbids changing a column in place), and they run
 * outside explicit transactions. SQLite ignores the comment (its statements
 * are all kept: reusingStatements below).
 */
export const PREPARED_MARK = '/* prepared */';
export const prepared = sql.raw(PREPARED_MARK);

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (statementNames.size > 1_000) statementNames.clear(); // a few texts in practice
    statementNames.set(text, name);
  }
  return name;
}

/** pg's client, giving marked statements a name: pg parses a named statement once per connection and PostgreSQL keeps its plan. */
class PreparingClient extends pg.Client {
  // pg's query() has many overloads; Kysely calls query(text, values) and gets a promise.
  override query(...args: any[]): any {
    const [text, values] = args;
    if (typeof text === 'string' && text.endsWith(PREPARED_MARK) && args.length === 2) {
      return super.query({ name: statementName(text), text, values });
    }
    return (super.query as (...a: any[]) => any)(...args);
  }
}

/**
 * Kysely's SQLite driver prepares every query's SQL anew; preparing (parsing
 * and planning) was a fifth of the server's CPU under `npm run bench:order`.
 * The app's queries are a few hundred distinct texts, so each prepared
 * statement is kept and reused (the most recently used STATEMENT_CACHE_SIZE).
 * A statement still being iterated is busy: that caller gets a fresh one
 * (Kysely's one connection runs one query at a time, so this is defensive).
 * SQLite re-prepares a kept statement by itself when the schema changed (a
 * migration), so a kept statement never runs stale.
 */
const STATEMENT_CACHE_SIZE = 500;

export function reusingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const statement = kept.get(sql);
      if (statement && !statement.busy) {
        // Map order is the recency order: move it to the end.
        kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      }
      const fresh = sqlite.prepare(sql);
      if (!statement) {
        kept.set(sql, fresh);
        if (kept.size > STATEMENT_CACHE_SIZE) kept.delete(kept.keys().next().value!);
      }
      return fresh;
    },
  };
}

/**
 * SQLite transactions begin with `begin immediate`: they take the write lock
 * at once, waiting for it under busy_timeout. Kysely's plain `begin` takes it
 * only at the first write; a transaction that read first (the lifecycle reads
 * the step's due date before it updates the order) and then finds another
 * process holding the lock gets "database is locked" at once, because SQLite
 * does not wait for a lock it would have to upgrade to. Another process is
 * the e2e specs writing beside the server, or a second server on the file.
 * Inside one process nothing changes: its one connection runs one transaction
 * at a time anyway.
 */
class WriteLockFirstSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class WriteLockFirstSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new WriteLockFirstSqliteDriver(this.#config);
  }
}
