// What a starting server seeds, one instance at a time. Each seed first looks
// whether its rows are there and then inserts them; two instances starting at
// the same moment on an empty PostgreSQL database both saw "absent", and the
// second insert failed on a unique key (account_account_key), stopping that
// instance. On PostgreSQL the whole seeding now runs under a session advisory
// lock: the second instance waits for the first, then finds the rows present.
// On a SQLite file, which several processes may open too, the lock is a file
// beside the database (<file>.seed-lock) holding its holder's pid.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { DatabaseHandle } from '../database.ts';
import type { Database } from '../schema.ts';
import type { AccountService } from '../../modules/account/account.service.ts';
import type { OperatorService } from '../../modules/operator/operator.service.ts';
import { seedCatalogue } from './catalogue/index.ts';
import { seedDemoAccounts } from './demo-accounts.ts';
import { seedDemoOperators } from './demo-operators.ts';
import { seedInsurancePlans } from './insurance-plans.ts';
import { seedNationalDays } from './national-days.ts';
import { seedReceivingAddresses } from './receiving-addresses.ts';

/**
 * Runs `work` while no other instance on the same database runs its own.
 * PostgreSQL: a session advisory lock named after the schema (instances on
 * other schemas, the tests, do not wait for each other) on one reserved
 * connection; the work itself may use the pool's other connections.
 * SQLite: a lock file (fileLock below). An in-memory database has one user.
 */
export async function withStartupLock<T>(database: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  if (database.kind === 'sqlite') {
    if (!database.file || database.file === ':memory:') return work();
    const release = await fileLock(`${database.file}.seed-lock`);
    try {
      return await work();
    } finally {
      release();
    }
  }
  const name = startupLockName(database.schema ?? 'public');
  return database.db.connection().execute(async (connection: Kysely<Database>) => {
    await sql`select pg_advisory_lock(hashtext(${name}))`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${name}))`.execute(connection);
    }
  });
}

/** The PostgreSQL advisory lock's name: per schema, so that the tests' schemas do not wait for each other. */
export const startupLockName = (schema: string) => `visa-startup-seed:${schema}`;

/** How long a start waits for another instance's seeding before going on without the lock. */
const FILE_LOCK_PATIENCE_MS = 60_000;

function holderAlive(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path, 'utf8'));
  } catch {
    return true; // being written, or just removed: look again
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates `path` exclusively (O_EXCL: of two creators one wins) with this
 * process's pid, waiting while another holds it. A lock left by a process that
 * is gone (a crash mid-seed) is taken over; after a minute's wait the start
 * goes on without it, which at worst fails as it did before the lock.
 */
async function fileLock(path: string): Promise<() => void> {
  const giveUpAt = Date.now() + FILE_LOCK_PATIENCE_MS;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!holderAlive(path)) rmSync(path, { force: true });
    else if (Date.now() > giveUpAt) return () => {};
    else await sleep(50);
  }
}

export interface StartupSeedInput {
  config: Pick<AppConfig, 'APP_ENV'>;
  database: DatabaseHandle;
  services: { account: AccountService; operator: OperatorService };
  log: Pick<FastifyBaseLogger, 'info'>;
}

/** Seeds the demo data (dev and demo) and the national days (every environment). */
export async function seedOnStart({ config, database, services, log }: StartupSeedInput): Promise<void> {
  const { db } = database;
  await withStartupLock(database, async () => {
    if (config.APP_ENV === 'dev' || config.APP_ENV === 'demo') {
      const created = await seedDemoAccounts(services.account, async (account) =>
        Boolean(await db.selectFrom('account').select('id').where('account', '=', account).executeTakeFirst()),
      );
      if (created > 0) log.info({ created }, 'demo accounts seeded');
      const catalogue = await seedCatalogue(db, Date.now());
      if (catalogue.countries > 0) log.info(catalogue, 'demo catalogue seeded');
      const plans = await seedInsurancePlans(db);
      if (plans > 0) log.info({ plans }, 'demo insurance plans seeded');
      const receiving = await seedReceivingAddresses(db, Date.now());
      if (receiving > 0) log.info({ receiving }, 'demo receiving addresses seeded');
    }
    // Demo back-office staff: dev and demo only (the function itself refuses any other APP_ENV).
    const operators = await seedDemoOperators(services.operator, config.APP_ENV);
    if (operators > 0) log.info({ operators }, 'demo operators seeded');
    // Every environment: consulate closing days of the countries present (adds only for countries without any).
    const nationalDays = await seedNationalDays(db);
    if (nationalDays > 0) log.info({ nationalDays }, 'national days seeded');
  });
}
