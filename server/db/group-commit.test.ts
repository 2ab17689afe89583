// Group commit (group-commit.ts), on SQLite or PostgreSQL (TEST_DATABASE_URL):
// writes of one turn share one transaction; a failing write fails alone; a
// caller hears "done" only once its write is committed (another connection
// sees it); writes that come while a group is being written form the next group.
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/test-app.ts';
import type { DatabaseHandle } from './database.ts';
import { groupCommit } from './group-commit.ts';
import type { Database } from './schema.ts';

let testDb: TestDatabase;
let handle: DatabaseHandle;
let other: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase();
  handle = testDb.open();
  other = testDb.open();
  await sql`create table group_probe (id integer primary key, name text not null unique)`.execute(handle.db);
});
afterAll(async () => {
  await handle.destroy();
  await other.destroy();
  await testDb.drop();
});

async function storedByOther(id: number): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`select name from group_probe where id = ${id}`.execute(other.db);
  return rows.length === 1;
}

describe('group commit', () => {
  it('writes of one turn share a transaction, each committed before its caller hears back, and a failing one fails alone', async () => {
    const transactions = new Set<Transaction<Database>>();
    const insert = groupCommit(handle.db, async (trx, input: { id: number; name: string }) => {
      transactions.add(trx);
      await sql`insert into group_probe (id, name) values (${input.id}, ${input.name})`.execute(trx);
      return input.id;
    });
    const names = ['护照', '照片', '护照', '在职证明', '户口本'];
    const results = await Promise.allSettled(
      names.map((name, i) =>
        insert({ id: 100 + i, name }).then(async (id) => {
          expect(await storedByOther(id)).toBe(true); // committed when we hear of it
          return id;
        }),
      ),
    );
    expect(transactions.size).toBe(1);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await storedByOther(102)).toBe(false);
    const { rows } = await sql<{ id: number }>`select id from group_probe where id between 100 and 199 order by id`.execute(other.db);
    expect(rows.map((r) => Number(r.id))).toEqual([100, 101, 103, 104]);
  });

  it('writes that come while a group is being written form the next group', async () => {
    const transactions: Transaction<Database>[] = [];
    let release: () => void = () => {};
    const firstHeld = new Promise<void>((resolve) => (release = resolve));
    const insert = groupCommit(handle.db, async (trx, id: number) => {
      if (!transactions.includes(trx)) transactions.push(trx);
      if (id === 200) await firstHeld; // the first group is still being written
      await sql`insert into group_probe (id, name) values (${id}, ${`资料${id}`})`.execute(trx);
      return id;
    });
    const first = insert(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = [insert(201), insert(202)];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(transactions).toHaveLength(1);
    release();
    expect(await Promise.all([first, ...later])).toEqual([200, 201, 202]);
    expect(transactions).toHaveLength(2);
    for (const id of [200, 201, 202]) expect(await storedByOther(id)).toBe(true);
  });
});
