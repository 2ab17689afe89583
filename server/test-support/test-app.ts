// A real app on a real, private database for each test file: a temporary
// SQLite file, or a PostgreSQL schema of its own when TEST_DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject, type ProvidedContext } from 'vitest';
import type { Contract, PayloadOf, ResultOf } from '../../common/contracts/define.ts';
import { ADMIN_CONTRACTS, WWW_CONTRACTS } from '../../common/contracts/index.ts';
import { API_VERSION } from '../../common/constants.ts';
import { newRequestId, sha256Hex, signRequest } from '../../common/signing.ts';
import { buildApp } from '../app.ts';
import { type AppConfig, loadConfig } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedNationalDays } from '../db/seed/national-days.ts';
import { seedInsurancePlans } from '../db/seed/insurance-plans.ts';
import type { Mailer } from '../modules/notification/mailer.ts';
import type { Kysely } from 'kysely';
import type { Database, OperatorRoleValue, OperatorStatusValue } from '../db/schema.ts';
import { createOperatorRepository } from '../modules/operator/operator.repository.ts';
import { newTotpSecret, totpCode } from '../modules/operator/totp.ts';
import { insertColleague, insertCustomer, insertProduct, type ProductOptions } from './factories.ts';
import { testPasswordHashOf } from './password.ts';
import { databaseUrl, TEST_DATABASE_PREFIX } from './template.ts';

export const TEST_ACCESS_KEY = 'visa-web-test';
export const TEST_SECRET = 'test-secret-0123456789';

export interface TestClock {
  now: number;
}

export interface TestDatabase {
  config: AppConfig;
  open(): DatabaseHandle;
  drop(): Promise<void>;
  kind: 'sqlite' | 'postgres';
}

/** What global-setup.ts provided, or nothing when this file runs outside Vitest's global setup. */
function provided<K extends 'sqliteTemplate' | 'pgTemplate' | 'runTag'>(key: K): ProvidedContext[K] | null {
  try {
    return inject(key) ?? null;
  } catch {
    return null;
  }
}

/**
 * A fresh, migrated database that several app instances can open: a copy of
 * the run's migrated template (global-setup.ts) — the SQLite file copied, or
 * a PostgreSQL database created from the template database. Without a
 * template (a file run outside Vitest's global setup) the database is
 * migrated here, in a schema of its own on PostgreSQL, as before.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  const pgTemplate = provided('pgTemplate');
  if (url && pgTemplate) {
    const name = `${TEST_DATABASE_PREFIX}${provided('runTag') ?? process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${pgTemplate}`);
    await admin.end();
    const config = testConfig({ DATABASE_URL: databaseUrl(url, name) });
    return {
      config,
      kind: 'postgres',
      open: () => openDatabase(config.database),
      drop: async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  }
  if (url) {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const config = testConfig({ DATABASE_URL: url });
    const migrator = openDatabase(config.database, { pgSchema: schema, poolSize: 1 });
    await migrateToLatest(migrator);
    await migrator.destroy();
    return {
      config,
      kind: 'postgres',
      open: () => openDatabase(config.database, { pgSchema: schema }),
      drop: async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'visa-test-'));
  const config = testConfig({ SQLITE_FILE: join(dir, 'test.db') });
  const sqliteTemplate = provided('sqliteTemplate');
  if (sqliteTemplate) {
    copyFileSync(sqliteTemplate, join(dir, 'test.db'));
  } else {
    const migrator = openDatabase(config.database);
    await migrateToLatest(migrator);
    await migrator.destroy();
  }
  return { config, kind: 'sqlite', open: () => openDatabase(config.database), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export function testConfig(extra: Record<string, string> = {}): AppConfig {
  return loadConfig({
    APP_ENV: 'test',
    LOG_LEVEL: 'silent',
    API_CLIENTS: `4:${TEST_ACCESS_KEY}:${TEST_SECRET},1:visa-app-test:app-secret-0123456789`,
    // Tests never write into the working tree's outbox.
    OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'visa-outbox-')),
    // …nor into its SMS sandbox.
    SMS_OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'visa-sms-')),
    // Never the working tree's data/uploads.
    UPLOAD_DIR: mkdtempSync(join(tmpdir(), 'visa-uploads-')),
    ...extra,
  });
}

export interface SignedOptions {
  token?: string;
  /** The caller's address as the server sees it (inject only). */
  remoteAddress?: string;
  headers?: Record<string, string | undefined>;
  date?: string;
  requestId?: string;
}

export function signedHeaders(clock: TestClock, options: SignedOptions = {}): Record<string, string> {
  const date = options.date ?? new Date(clock.now).toUTCString();
  const requestId = options.requestId ?? newRequestId();
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'x-version': API_VERSION,
    'x-date': date,
    'x-request-id': requestId,
    platform: '4',
    authorization: `Basic ${signRequest({ accessKey: TEST_ACCESS_KEY, date, version: API_VERSION, requestId }, TEST_SECRET)}`,
    ...(options.token ? { 'x-token': options.token } : {}),
    ...options.headers,
  };
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export interface NewTestOperator {
  account?: string;
  name?: string;
  role?: OperatorRoleValue;
  password?: string;
  /** null: not enrolled (as after a supervisor's reset); a new random secret by default. */
  totpSecret?: string | null;
  status?: OperatorStatusValue;
}

export interface TestOperator {
  operatorId: number;
  account: string;
  name: string;
  role: OperatorRoleValue;
  password: string;
  totpSecret: string | null;
  /** The authenticator's code at a time (the test clock's, usually). */
  code(atMs: number): string;
}

/** scrypt is slow on purpose: one hash per password per test process. */
let operatorCount = 0;

/**
 * Inserts an operator straight into the database (no API call, no supervisor):
 * for other areas' tests that need staff. Password 'Operator@123456' unless given.
 */
export async function insertOperator(db: Kysely<Database>, input: NewTestOperator = {}): Promise<TestOperator> {
  operatorCount += 1;
  const password = input.password ?? 'Operator@123456';
  const hash = testPasswordHashOf(password);
  const role = input.role ?? 'operator';
  const account = input.account ?? `${role}${operatorCount}_${randomBytes(3).toString('hex')}`;
  const name = input.name ?? `测试${role === 'supervisor' ? '主管' : '操作员'}${operatorCount}`;
  const totpSecret = input.totpSecret === undefined ? newTotpSecret() : input.totpSecret;
  const repo = createOperatorRepository(db);
  const operatorId = await repo.insert({ account, name, role, password_hash: await hash, totp_secret: totpSecret, now: Date.now() });
  if (input.status === 'disabled') await repo.setStatus(operatorId, 'disabled', Date.now());
  return {
    operatorId,
    account,
    name,
    role,
    password,
    totpSecret,
    code: (atMs) => {
      if (!totpSecret) throw new Error(`${account} has no TOTP secret`);
      return totpCode(totpSecret, atMs);
    },
  };
}

export interface TestAppOptions {
  mailer?: Mailer;
  /** Runs on the fresh database before the app starts (e.g. the catalogue seed). */
  seed?: (handle: DatabaseHandle) => Promise<unknown>;
}

export async function createTestApp(testDb?: TestDatabase, options: TestAppOptions = {}) {
  const database = testDb ?? (await createTestDatabase());
  const handle = database.open();
  const clock: TestClock = { now: Date.now() };
  // Reference data every order flow needs (idempotent: several apps may share the database).
  await seedInsurancePlans(handle.db);
  if (options.seed) await options.seed(handle);
  // National days of the countries just seeded, as main.ts does (nothing without countries).
  await seedNationalDays(handle.db);
  const { app, services } = await buildApp({ config: database.config, database: handle, now: () => clock.now, mailer: options.mailer });
  await app.ready();

  /**
   * A signed call. An answer with ret 0 must parse with the call's contract
   * result (common/contracts), or the test fails here; the body is returned as
   * sent (unparsed), so a test can still see a field the contract lacks.
   */
  async function call(path: string, payload: unknown = {}, options: SignedOptions = {}) {
    const response = await app.inject({
      method: 'POST',
      url: path,
      headers: signedHeaders(clock, options),
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    const body = response.json() as { ret: number; msg: string; body: any };
    const contract: Contract | undefined = ({ ...WWW_CONTRACTS, ...ADMIN_CONTRACTS } as Record<string, Contract>)[path];
    if (contract && body.ret === 0) contract.result.parse(body.body);
    return { status: response.statusCode, body, raw: response };
  }

  /** A call typed by its contract: the payload checked by TypeScript, a ret 0 body parsed into the result type. */
  async function callContract<C extends Contract>(contract: C, payload: PayloadOf<C>, options: SignedOptions = {}) {
    const answer = await call(contract.path, payload, options);
    return { ...answer, result: answer.body.ret === 0 ? (contract.result.parse(answer.body.body) as ResultOf<C>) : null };
  }

  /** Creates an enterprise with an administrator; returns its credentials (insertCustomer, kept under its old name). */
  async function createAccount(password = 'Passw0rd!') {
    const { account, accountId, enterpriseId } = await insertCustomer(handle.db, { password });
    return { account, password, accountId, enterpriseId };
  }

  async function login(account: string, password: string) {
    const result = await call('/www/account_login', { account, password: sha256Hex(password) });
    if (result.body.ret !== 0) throw new Error(`login failed: ${result.body.msg}`);
    return result.body.body.token as string;
  }

  /**
   * An operator (or supervisor) with a live session: `call` / `callContract`
   * carry its X-Token, so a test reaches /admin-api as that operator.
   *   const op = await t.operator({ role: 'supervisor' });
   *   const answer = await op.call('/admin-api/operator/operator_list');
   */
  async function operator(input: NewTestOperator = {}) {
    const created = await insertOperator(handle.db, input);
    const { token } = await services.operator.openSession(created.operatorId, '127.0.0.1', 'test');
    return {
      ...created,
      token,
      /** The principal services take, for calling a service directly. */
      principal: { kind: 'operator' as const, operatorId: created.operatorId, role: created.role },
      call: (path: string, payload: unknown = {}, options: SignedOptions = {}) => call(path, payload, { token, ...options }),
      callContract: <C extends Contract>(contract: C, payload: PayloadOf<C>, options: SignedOptions = {}) =>
        callContract(contract, payload, { token, ...options }),
    };
  }

  return {
    app,
    services,
    /** The app's own database handle (its pool or SQLite connection). */
    handle,
    db: handle.db,
    kind: database.kind,
    /** The app's configuration (its outbox folders). */
    config: database.config,
    clock,
    call,
    callContract,
    createAccount,
    login,
    operator,
    /** A product with its country, consulates and checklist (factories.ts has the defaults). */
    insertProduct: (options: ProductOptions = {}) => insertProduct(handle.db, { at: clock.now, ...options }),
    /** An enterprise and its administrator with a known password, unique each call. */
    insertCustomer: (options?: Parameters<typeof insertCustomer>[1]) => insertCustomer(handle.db, options),
    /** A colleague of an enterprise with a role (issue 29), logged in: the principal, the credentials and a session token. */
    async loggedInColleague(enterpriseId: number, role: 'admin' | 'agent' | 'finance', options?: Parameters<typeof insertColleague>[3]) {
      const created = await insertColleague(handle.db, enterpriseId, role, options);
      return { ...created, token: await login(created.account, created.password) };
    },
    /** insertCustomer, logged in: the principal, the credentials and a session token. */
    async loggedInCustomer(options?: Parameters<typeof insertCustomer>[1]) {
      const created = await insertCustomer(handle.db, options);
      return { ...created, token: await login(created.account, created.password) };
    },
    async close(dropDatabase = !testDb) {
      await app.close();
      await handle.destroy();
      if (dropDatabase) await database.drop();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
