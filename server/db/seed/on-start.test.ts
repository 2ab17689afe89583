// Two instances starting at the same moment on one fresh database: each seeds
// the demo data (APP_ENV demo) under the start-up lock, so both start and every
// seeded row exists once. Before the lock, the second instance's insert of
// demo_admin failed on account_account_key and that instance stopped.
import { readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../database.ts';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../../test-support/test-app.ts';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';
import { DEMO_OPERATORS } from './demo-operators.ts';
import { seedOnStart, startupLockName, withStartupLock } from './on-start.ts';

const quiet = { info: () => {} };

describe('start-up seeding', () => {
  let database: TestDatabase;
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close(false);
    await database.drop();
  });

  /** An app instance of its own (own pool or SQLite connection) on the shared database. */
  async function instance(): Promise<{ app: TestApp; handle: DatabaseHandle }> {
    const app = await createTestApp(database);
    apps.push(app);
    return { app, handle: app.handle };
  }

  it('two instances starting at once both start, and seed every demo row once', async () => {
    database = await createTestDatabase();
    const first = await instance();
    const second = await instance();

    const seeds = [first, second].map(({ app, handle }) => seedOnStart({ config: { APP_ENV: 'demo' }, database: handle, services: app.services, log: quiet }));
    await expect(Promise.all(seeds)).resolves.toHaveLength(2);

    const db = first.app.db;
    for (const { adminAccount } of DEMO_ACCOUNTS) {
      const rows = await db.selectFrom('account').select('id').where('account', '=', adminAccount).execute();
      expect(rows, adminAccount).toHaveLength(1);
    }
    const enterprises = await db.selectFrom('enterprise').select('name').execute();
    expect(enterprises.map((row) => row.name).sort()).toEqual(DEMO_ACCOUNTS.map((account) => account.enterpriseName).sort());
    const operators = await db.selectFrom('operator').select('account').execute();
    expect(operators.map((row) => row.account).sort()).toEqual(DEMO_OPERATORS.map((operator) => operator.account).sort());
    // The catalogue seeded once: no country twice.
    const countries = await db.selectFrom('visa_country').select('name').execute();
    expect(countries.length).toBeGreaterThan(10);
    expect(new Set(countries.map((row) => row.name)).size).toBe(countries.length);
  });

  it('the lock lets one start seed at a time, and is free again after a failed seed', async () => {
    database = await createTestDatabase();
    const first = await instance();
    const second = await instance();
    const steps: string[] = [];
    const work = (name: string) => async () => {
      steps.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      steps.push(`${name} out`);
    };
    await Promise.all([withStartupLock(first.handle, work('a')), withStartupLock(second.handle, work('b'))]);
    expect([steps.slice(0, 2), steps.slice(2)]).toEqual(
      steps[0] === 'a in'
        ? [
            ['a in', 'a out'],
            ['b in', 'b out'],
          ]
        : [
            ['b in', 'b out'],
            ['a in', 'a out'],
          ],
    );

    await expect(
      withStartupLock(first.handle, async () => {
        throw new Error('seed failed');
      }),
    ).rejects.toThrow('seed failed');
    await expect(withStartupLock(second.handle, async () => 'taken')).resolves.toBe('taken');
  });

  it('a lock whose holder is gone does not hold up the next start', async () => {
    database = await createTestDatabase();
    const { handle } = await instance();
    if (handle.kind === 'sqlite') {
      // A crash mid-seed leaves the lock file behind, with a pid that no longer runs.
      writeFileSync(`${handle.file}.seed-lock`, '2147483646');
    } else {
      // PostgreSQL ends a session's advisory locks with the session: one that took it and closed.
      const other = database.open();
      await other.db.connection().execute(async (connection) => {
        await sql`select pg_advisory_lock(hashtext(${startupLockName(handle.schema!)}))`.execute(connection);
      });
      await other.destroy();
    }
    // Taken over, not given up on after the minute's wait: the lock is this process's while the seed runs.
    const held = async () =>
      handle.kind === 'sqlite'
        ? readFileSync(`${handle.file}.seed-lock`, 'utf8') === String(process.pid)
        : (
            await sql<{ n: number }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted
              and database = (select oid from pg_database where datname = current_database())`.execute(handle.db)
          ).rows[0]!.n === 1;
    await expect(withStartupLock(handle, held)).resolves.toBe(true);
  });
});
