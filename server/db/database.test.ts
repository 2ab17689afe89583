// SQLite shared by two processes (the e2e specs write beside the server): a
// transaction that reads before it writes must wait for the other process's
// write lock, not fail. CI at 1d71599 lost an e2e journey to "database is
// locked" when the lifecycle, run from the spec, read the step's due date and
// then updated the order while the server was writing. It runs on SQLite
// whichever database the suite is on: the lock is SQLite's own.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.ts';

/** Another process that takes the write lock, says 'held', and commits after `holdMs`. */
function holdWriteLock(file: string, holdMs: number): Promise<{ child: ChildProcess; committed: Promise<void> }> {
  const script = `
    const SQLite = require('better-sqlite3');
    const db = new SQLite(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    db.exec("begin immediate; update counter set value = value + 100 where id = 1");
    process.stdout.write('held\\n');
    setTimeout(() => { db.exec('commit'); db.close(); }, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const committed = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`holder exited ${code}`)))));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve({ child, committed });
    });
    child.on('error', reject);
  });
}

describe('SQLite shared by two processes', () => {
  let dir: string;
  let handle: DatabaseHandle;
  afterEach(async () => {
    await handle.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a transaction that reads before it writes waits for the other process’s write lock', async () => {
    dir = mkdtempSync(join(tmpdir(), 'visa-sqlite-lock-'));
    const file = join(dir, 'shared.sqlite');
    handle = openDatabase({ kind: 'sqlite', file });
    await sql`create table counter (id integer primary key, value integer not null)`.execute(handle.db);
    await sql`insert into counter (id, value) values (1, 1)`.execute(handle.db);

    const holder = await holdWriteLock(file, 300);
    // Read, then write, in one transaction, while the other process holds the write lock.
    const value = await handle.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ value: number }>`select value from counter where id = 1`.execute(trx);
      await sql`update counter set value = ${rows[0]!.value + 1} where id = 1`.execute(trx);
      return rows[0]!.value;
    });
    await holder.committed;

    // It waited for the other's commit, so it read 101, not a stale 1, and nothing was lost.
    expect(value).toBe(101);
    const { rows } = await sql<{ value: number }>`select value from counter where id = 1`.execute(handle.db);
    expect(rows[0]!.value).toBe(102);
  });
});
