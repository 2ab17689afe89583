// Statements marked `prepared` (database.ts) on SQLite or PostgreSQL
// (TEST_DATABASE_URL): they answer like any statement, for any values, also
// after PostgreSQL has switched to its generic plan (after five runs) and after a
// migration added a column to their table. On PostgreSQL a marked statement is
// prepared once per connection under one name; an unmarked one is not kept.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/test-app.ts';
import { type DatabaseHandle, PREPARED_MARK, prepared } from './database.ts';

let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase();
  handle = testDb.open();
  await sql`create table prepared_probe (id integer primary key, name text not null)`.execute(handle.db);
  await sql`insert into prepared_probe (id, name) values (1, '护照'), (2, '照片'), (3, '在职证明')`.execute(handle.db);
});
afterAll(async () => {
  await handle.destroy();
  await testDb.drop();
});

describe('prepared statements', () => {
  it('answer for every value, past the generic plan and after a column is added', async () => {
    await handle.db.connection().execute(async (conn) => {
      const probe = (id: number) =>
        conn
          .selectFrom('prepared_probe' as never)
          .select(['id', 'name'] as never[])
          .where('id' as never, '=', id as never)
          .modifyEnd(prepared)
          .executeTakeFirst() as Promise<{ id: number; name: string } | undefined>;
      const names = { 1: '护照', 2: '照片', 3: '在职证明' } as const;
      for (let run = 0; run < 8; run++) {
        const id = ((run % 3) + 1) as 1 | 2 | 3;
        expect(await probe(id)).toEqual({ id, name: names[id] });
      }
      expect(await probe(99)).toBeUndefined();

      await sql`alter table prepared_probe add column note text`.execute(conn);
      expect(await probe(2)).toEqual({ id: 2, name: '照片' });

      await conn
        .selectFrom('prepared_probe' as never)
        .select(['name'] as never[])
        .execute(); // unmarked
      if (handle.kind === 'postgres') {
        const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(conn);
        const marked = rows.filter((row) => row.statement.endsWith(PREPARED_MARK));
        expect(marked).toHaveLength(1);
        expect(marked[0]!.name).toMatch(/^p_[0-9a-f]{24}$/);
        expect(rows).toHaveLength(1);
      }
    });
  });
});
