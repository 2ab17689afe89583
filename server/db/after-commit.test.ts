// afterCommit() on SQLite or PostgreSQL (TEST_DATABASE_URL), on a database
// opened by openDatabase(): a callback registered in a transaction runs once
// it has committed, and never when it rolls back (nor when only its savepoint
// does); outside a transaction it runs at once; a failing callback does not
// turn the committed transaction into an error.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/test-app.ts';
import { afterCommit, databaseKey } from './after-commit.ts';
import type { DatabaseHandle } from './database.ts';

let database: TestDatabase;
let handle: DatabaseHandle;
let nextId = 900;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = database.open();
});
afterAll(async () => {
  await handle?.destroy();
  await database?.drop();
});

/** A row of a small table, so the test can see what was committed. */
function insertContinent(db: typeof handle.db) {
  nextId += 1;
  const id = nextId;
  return db
    .insertInto('continent')
    .values({ continent_id: id, name: `洲${id}`, name_en: `C${id}`, sort: id })
    .execute()
    .then(() => id);
}

const exists = async (id: number) =>
  (await handle.db.selectFrom('continent').select('continent_id').where('continent_id', '=', id).executeTakeFirst()) !== undefined;

describe(`afterCommit (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('runs a callback once the transaction committed, not before', async () => {
    const calls: string[] = [];
    const id = await handle.db.transaction().execute(async (trx) => {
      const inserted = await insertContinent(trx);
      await afterCommit(trx, () => {
        calls.push('first');
      });
      await afterCommit(trx, () => {
        calls.push('second');
      });
      expect(calls).toEqual([]);
      return inserted;
    });
    expect(calls).toEqual(['first', 'second']);
    expect(await exists(id)).toBe(true);
  });

  it('never runs it when the transaction rolls back', async () => {
    const callback = vi.fn();
    let id = 0;
    await expect(
      handle.db.transaction().execute(async (trx) => {
        id = await insertContinent(trx);
        await afterCommit(trx, callback);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(callback).not.toHaveBeenCalled();
    expect(await exists(id)).toBe(false);
    // The next transaction on the same connection starts with nothing left over.
    await handle.db.transaction().execute(async (trx) => {
      await insertContinent(trx);
    });
    expect(callback).not.toHaveBeenCalled();
  });

  it('drops what was registered after a savepoint rolled back to, keeps what came before it', async () => {
    const calls: string[] = [];
    const trx = await handle.db.startTransaction().execute();
    await insertContinent(trx);
    await afterCommit(trx, () => {
      calls.push('before');
    });
    const afterSavepoint = await trx.savepoint('sp').execute();
    await insertContinent(afterSavepoint);
    await afterCommit(afterSavepoint, () => {
      calls.push('rolled back');
    });
    await afterSavepoint.rollbackToSavepoint('sp').execute();
    await afterCommit(trx, () => {
      calls.push('after');
    });
    await trx.commit().execute();
    expect(calls).toEqual(['before', 'after']);
  });

  it('runs at once outside a transaction (every statement is committed already)', async () => {
    const callback = vi.fn();
    await afterCommit(handle.db, callback);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('a callback that throws or rejects is reported; the commit stands and the next callbacks still run', async () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const later = vi.fn();
      const id = await handle.db.transaction().execute(async (trx) => {
        const inserted = await insertContinent(trx);
        await afterCommit(trx, () => {
          throw new Error('hook broke');
        });
        await afterCommit(trx, () => Promise.reject(new Error('hook broke later')));
        await afterCommit(trx, later);
        return inserted;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(await exists(id)).toBe(true);
      expect(later).toHaveBeenCalledTimes(1);
      expect(reported).toHaveBeenCalledTimes(2);
    } finally {
      reported.mockRestore();
    }
  });

  it('keeps concurrent transactions apart: each runs its own callbacks, only if it commits', async () => {
    const calls: string[] = [];
    const results = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((name) =>
        handle.db.transaction().execute(async (trx) => {
          await insertContinent(trx);
          await afterCommit(trx, () => {
            calls.push(name);
          });
          if (name === 'c') throw new Error('c rolls back');
        }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(calls.sort()).toEqual(['a', 'b', 'd']);
  });

  it('names one key per database handle, the same for its transactions, another for another handle', async () => {
    const other = database.open();
    try {
      await handle.db.transaction().execute(async (trx) => {
        expect(databaseKey(trx)).toBe(databaseKey(handle.db));
      });
      expect(databaseKey(other.db)).not.toBe(databaseKey(handle.db));
    } finally {
      await other.destroy();
    }
  });
});
