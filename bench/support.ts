// Shared by the benchmarks: start the built app (demo data, its own SQLite
// file) or another server in a child process and learn its port.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { devSignedHeaders } from '../server/test-support/signed-headers.ts';

/** Spec §7's signature headers for one call by the development client, with the session token if any. */
export const signedHeaders = devSignedHeaders;

export async function startProcess(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn('node', args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  for await (const chunk of child.stdout!) {
    output += String(chunk);
    const port = /"port":(\d+)/.exec(output)?.[1];
    if (port) {
      child.stdout!.resume();
      return { child, port: Number(port) };
    }
  }
  throw new Error(`${args.join(' ')} exited before listening`);
}

/** A free port: the sandbox's payment notification calls the site back at PUBLIC_SITE_URL, so the port is known before the start. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The built app in demo mode in a child process, on a port known before it
 * starts, with its own folder for the outbox and uploads: on a SQLite file of
 * its own, or on `databaseUrl` (a PostgreSQL database the bench made).
 */
export async function startBuiltApp({ databaseUrl }: { databaseUrl?: string } = {}): Promise<{
  child: ChildProcess;
  port: number;
  dir: string;
  dbFile: string;
}> {
  if (!existsSync('build/server/index.js')) throw new Error('build/server/index.js is missing: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'visa-bench-'));
  const dbFile = join(dir, 'bench.db');
  const port = await freePort();
  const app = await startProcess(['--conditions=production', '--import', 'tsx', 'server/main.ts'], {
    APP_ENV: 'demo',
    NODE_ENV: 'production',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { SQLITE_FILE: dbFile }),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
    OUTBOX_DIR: join(dir, 'outbox'),
    UPLOAD_DIR: join(dir, 'uploads'),
  });
  return { ...app, dir, dbFile };
}

/** A listed product with more than ten reviews: the fullest product page. */
export function benchProductId(dbFile: string): number {
  const db = new SQLite(dbFile, { readonly: true });
  try {
    const row = db
      .prepare(
        `select p.visa_product_id as id from visa_product p
         where p.status = 0 and p.channel = 0 and p.offline = 1
           and (select count(*) from visa_product_review r where r.visa_product_id = p.visa_product_id) > 10
         order by p.visa_product_id limit 1`,
      )
      .get() as { id: number };
    return row.id;
  } finally {
    db.close();
  }
}

/** The three guest pages the speed goals name: home, a country page and a product page. */
export function guestPages(dbFile: string): Array<{ name: 'home' | 'country' | 'product'; path: string }> {
  const db = new SQLite(dbFile, { readonly: true });
  try {
    // The country with the most listed products: the fullest country page.
    const country = db
      .prepare(
        `select visa_country_id as id from visa_product
         where status = 0 and channel = 0 and offline = 1
         group by visa_country_id order by count(*) desc, visa_country_id limit 1`,
      )
      .get() as { id: number };
    return [
      { name: 'home', path: '/' },
      { name: 'country', path: `/visa/country/${country.id}` },
      { name: 'product', path: `/visa/product/${benchProductId(dbFile)}` },
    ];
  } finally {
    db.close();
  }
}

/** The median of a list of figures (the mean of the middle two when the count is even). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
