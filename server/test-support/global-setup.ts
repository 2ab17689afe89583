// Vitest's global setup: the migrations run once per test run, into a
// template that every test file copies (server/test-support/test-app.ts):
//   - SQLite: a migrated database file, copied per test file;
//   - PostgreSQL (TEST_DATABASE_URL): a migrated template database, and each
//     test file gets `CREATE DATABASE … TEMPLATE …` of it.
// Decision 0020 (docs/decisions/0020-test-data-factories.md) has the figures.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { databaseUrl, dropStaleTestDatabases, TEST_DATABASE_PREFIX } from './template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated SQLite file that test files copy. */
    sqliteTemplate: string | null;
    /** The migrated PostgreSQL database that test files are created from. */
    pgTemplate: string | null;
    /** Names this run's databases (the run's process id: stale ones are dropped by the next run). */
    runTag: string;
  }
}

export default async function setup(project: TestProject) {
  const runTag = `${process.pid}_${randomBytes(3).toString('hex')}`;
  project.provide('runTag', runTag);
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    await dropStaleTestDatabases(url);
    const name = `${TEST_DATABASE_PREFIX}tpl_${runTag}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const handle = openDatabase({ kind: 'postgres', url: databaseUrl(url, name) }, { poolSize: 1 });
    await migrateToLatest(handle);
    await handle.destroy();
    project.provide('pgTemplate', name);
    project.provide('sqliteTemplate', null);
    return async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'visa-test-template-'));
  const file = join(dir, 'template.db');
  const handle = openDatabase({ kind: 'sqlite', file });
  await migrateToLatest(handle);
  // Closing the last connection checkpoints the WAL into the file: the file alone is the template.
  await handle.destroy();
  project.provide('sqliteTemplate', file);
  project.provide('pgTemplate', null);
  return () => rmSync(dir, { recursive: true, force: true });
}
