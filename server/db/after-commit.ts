// "After this transaction commits, do X" for any Kysely transaction of a
// database opened by openDatabase() (decision 0034). The dialect's driver is
// wrapped: beginTransaction opens a list of callbacks for the connection,
// commitTransaction runs them once the COMMIT succeeded, rollbackTransaction
// (and a failed COMMIT, which Kysely follows with a rollback) drops them. So a
// callback registered inside a transaction runs if and only if that
// transaction committed, whoever opened it: lifecycle.change(), a module's own
// db.transaction() around apply(), a test's. Nothing waits on a timer.
//
// Callbacks run right after the COMMIT, before Kysely hands the connection
// back: they must be quick and must not query (schedule work instead, e.g. a
// job runner's poke). A callback that throws or rejects is reported and never
// turns a committed transaction into an error.
import type { DatabaseConnection, DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler, TransactionSettings } from 'kysely';

export type AfterCommitCallback = () => void | Promise<void>;

/** The callbacks of the transaction open on each connection (one at a time per connection). */
const open = new WeakMap<DatabaseConnection, AfterCommitCallback[]>();
/** Per savepoint of an open transaction: how many callbacks were registered before it. */
const savepoints = new WeakMap<DatabaseConnection, Map<string, number>>();

function report(error: unknown): void {
  console.error('after-commit callback failed', error);
}

function runAll(callbacks: AfterCommitCallback[] | undefined): void {
  for (const callback of callbacks ?? []) {
    try {
      const done = callback();
      if (done && typeof done.catch === 'function') done.catch(report);
    } catch (error) {
      report(error);
    }
  }
}

class AfterCommitDriver implements Driver {
  readonly #inner: Driver;
  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(inner: Driver) {
    this.#inner = inner;
    // Savepoints only where the wrapped driver has them (Kysely checks their presence).
    if (inner.savepoint) {
      this.savepoint = async (connection, name, compile) => {
        await inner.savepoint!(connection, name, compile);
        const marks = savepoints.get(connection) ?? new Map<string, number>();
        marks.set(name, open.get(connection)?.length ?? 0);
        savepoints.set(connection, marks);
      };
    }
    if (inner.rollbackToSavepoint) {
      this.rollbackToSavepoint = async (connection, name, compile) => {
        await inner.rollbackToSavepoint!(connection, name, compile);
        // What was registered after the savepoint was rolled back with it.
        const mark = savepoints.get(connection)?.get(name);
        if (mark !== undefined) open.get(connection)?.splice(mark);
      };
    }
    if (inner.releaseSavepoint) {
      this.releaseSavepoint = async (connection, name, compile) => {
        await inner.releaseSavepoint!(connection, name, compile);
        savepoints.get(connection)?.delete(name);
      };
    }
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.#inner.acquireConnection();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.#inner.beginTransaction(connection, settings);
    open.set(connection, []);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    // A COMMIT that fails leaves the list for the rollback Kysely sends next, which drops it.
    await this.#inner.commitTransaction(connection);
    const callbacks = open.get(connection);
    open.delete(connection);
    savepoints.delete(connection);
    runAll(callbacks);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    open.delete(connection);
    savepoints.delete(connection);
    await this.#inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

/** The dialect with its driver wrapped so that afterCommit() works (openDatabase uses it). */
export function withAfterCommit(dialect: Dialect): Dialect {
  return {
    createAdapter: (): DialectAdapter => dialect.createAdapter(),
    createDriver: (): Driver => new AfterCommitDriver(dialect.createDriver()),
    createQueryCompiler: (): QueryCompiler => dialect.createQueryCompiler(),
    createIntrospector: (db: Kysely<any>): DatabaseIntrospector => dialect.createIntrospector(db),
  };
}

/**
 * Runs `callback` once the transaction `db` belongs to has committed; never
 * when it rolls back. Outside a transaction (`db` is the database itself)
 * every statement is committed already: it runs at once.
 */
export async function afterCommit(db: Kysely<any>, callback: AfterCommitCallback): Promise<void> {
  if (!db.isTransaction) {
    runAll([callback]);
    return;
  }
  // The transaction's own connection (a transaction runs on one).
  const connection = await db.getExecutor().provideConnection(async (held) => held);
  const callbacks = open.get(connection);
  if (!callbacks) throw new Error('afterCommit: this transaction was not opened on a database of openDatabase() (server/db/database.ts)');
  callbacks.push(callback);
}

/**
 * The same object for a database handle's Kysely and every transaction and
 * derived instance of it (its dialect adapter, made once per Kysely): a key
 * for in-process registries that belong to one database handle.
 */
export function databaseKey(db: Kysely<any>): object {
  return db.getExecutor().adapter;
}
