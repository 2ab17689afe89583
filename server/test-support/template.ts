// The PostgreSQL side of the migrated template (global-setup.ts): names, the
// URL of a database beside the one TEST_DATABASE_URL names, and clean-up of
// what a killed run left behind.
import pg from 'pg';

/** Every database a test run creates starts so: `visa_t_tpl_<pid>_<hex>`, `visa_t_<pid>_<hex>_<hex>`. */
export const TEST_DATABASE_PREFIX = 'visa_t_';

/** TEST_DATABASE_URL with another database name. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Drops the test databases of runs whose process is gone (a run that was
 * killed before its teardown). A database still in use is left alone: the
 * drop is not forced, and its failure is ignored.
 */
export async function dropStaleTestDatabases(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${TEST_DATABASE_PREFIX}%`]);
    for (const { datname } of rows) {
      const pid = Number(/^visa_t_(?:tpl_)?(\d+)_/.exec(datname)?.[1]);
      if (!pid || alive(pid)) continue;
      await client.query(`drop database if exists ${datname}`).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}
