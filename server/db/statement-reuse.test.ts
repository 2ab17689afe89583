// The SQLite handle keeps prepared statements (database.ts reusingStatements):
// the same query text must keep answering correctly when it is reused, when a
// streamed select of it is still open, and after a migration changed the table.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, reusingStatements, type DatabaseHandle } from './database.ts';

let handle: DatabaseHandle | null = null;
afterEach(async () => {
  await handle?.destroy();
  handle = null;
});

function open(): Kysely<any> {
  handle = openDatabase({ kind: 'sqlite', file: join(mkdtempSync(join(tmpdir(), 'visa-statements-')), 'db.sqlite') });
  return handle.db as unknown as Kysely<any>;
}

describe('reused SQLite statements', () => {
  it('answer each call with its own parameters', async () => {
    const db = open();
    await sql`create table item (id integer primary key, name text not null)`.execute(db);
    for (const name of ['甲', '乙', '丙']) await db.insertInto('item').values({ name }).execute();
    const names = [];
    for (const id of [3, 1, 2, 1]) names.push((await db.selectFrom('item').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name);
    expect(names).toEqual(['丙', '甲', '乙', '甲']);
  });

  it('give a fresh statement while the kept one is still being iterated', () => {
    // Kysely's one SQLite connection runs one query at a time, so only a direct caller can get here.
    const raw = new SQLite(':memory:');
    raw.exec("create table item (id integer primary key, name text not null); insert into item (name) values ('甲'), ('乙')");
    const statements = reusingStatements(raw);
    const text = 'select name from item order by id';
    const first = statements.prepare(text) as unknown as SQLite.Statement;
    const names: string[] = [];
    for (const row of first.iterate() as Iterable<{ name: string }>) {
      const second = statements.prepare(text) as unknown as SQLite.Statement;
      expect(second).not.toBe(first);
      expect((second.all() as Array<{ name: string }>).map((r) => r.name)).toEqual(['甲', '乙']);
      names.push(row.name);
    }
    expect(names).toEqual(['甲', '乙']);
    expect(statements.prepare(text)).toBe(first);
    raw.close();
  });

  it('see a column a migration added after the statement was first prepared', async () => {
    const db = open();
    await sql`create table item (id integer primary key, name text not null)`.execute(db);
    await db.insertInto('item').values({ name: '甲' }).execute();
    const read = () => db.selectFrom('item').selectAll().executeTakeFirstOrThrow();
    expect(await read()).toEqual({ id: 1, name: '甲' });
    await sql`alter table item add column note text not null default '新列'`.execute(db);
    expect(await read()).toEqual({ id: 1, name: '甲', note: '新列' });
  });
});
