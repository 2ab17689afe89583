// `npm run backup` and `npm run restore`, run as an operator runs them (their
// own processes, configured by the environment): a backup taken while the app
// keeps creating orders and uploading files holds every order and file
// acknowledged before it began, and is consistent (every file row has its
// file); restored into a fresh place, the app starts on it and serves those
// files byte for byte. Restore refuses what is not a backup, a damaged one,
// and a database a process still has open. Always SQLite (the CLIs copy
// SQLite; for PostgreSQL they print pg_dump / pg_restore).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../../tests/fixtures/index.ts';
import { type AppConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { draftOrder, newCustomer, storedPlaintext, T0, upload } from '../test-support/fixtures/material.ts';
import { createTestApp, type TestApp, type TestDatabase, testConfig } from '../test-support/test-app.ts';
import { DATABASE_FILE, MANIFEST_FILE, UPLOAD_LIST_FILE, UPLOADS_DIR } from './backup-restore.ts';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(dir);
  return dir;
}

/** A migrated SQLite database and an upload folder of their own (even when the suite runs on PostgreSQL). */
async function sqliteSite(): Promise<TestDatabase> {
  const dir = tempDir('visa-backup-site-');
  const config = testConfig({ SQLITE_FILE: join(dir, 'visa.db'), UPLOAD_DIR: join(dir, 'uploads') });
  const migrator = openDatabase(config.database);
  await migrateToLatest(migrator);
  await migrator.destroy();
  return { config, kind: 'sqlite', open: () => openDatabase(config.database), drop: async () => {} };
}

interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `node --import tsx server/cli/<script>.ts DIR` with SQLITE_FILE and UPLOAD_DIR of `config`, in its own process. */
function cli(
  script: 'backup' | 'restore',
  dir: string,
  config: Pick<AppConfig, 'SQLITE_FILE' | 'UPLOAD_DIR'>,
  extraEnv: Record<string, string> = {},
): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['DATABASE_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'REDIS_URL']) delete env[name];
  Object.assign(env, { APP_ENV: 'test', SQLITE_FILE: config.SQLITE_FILE, UPLOAD_DIR: config.UPLOAD_DIR, ...extraEnv });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `server/cli/${script}.ts`, dir], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Every file under a folder, relative paths. */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

/** A real JPEG, PNG or PDF made unique by bytes after its end (the server sniffs only the first bytes). */
function uniqueScan(n: number): { content: Buffer; name: string } {
  const kinds = [
    { fixture: 'jpeg', name: 'passport.jpg' },
    { fixture: 'png', name: 'id-card.png' },
    { fixture: 'pdf', name: 'statement.pdf' },
  ] as const;
  const kind = kinds[n % kinds.length]!;
  return { content: Buffer.concat([fixture(kind.fixture), Buffer.from(`\n%backup-test ${n} ${Math.random()}\n`)]), name: kind.name };
}

interface AckedOrder {
  userOrderId: number;
  token: string;
  at: number;
}

interface AckedFile {
  fileId: number;
  userOrderId: number;
  token: string;
  content: Buffer;
  at: number;
}

describe('npm run backup / npm run restore (SQLite, local uploads)', () => {
  it('a backup taken under write load restores every order and file acknowledged before it began, consistent and readable', { timeout: 180_000 }, async () => {
    const site = await sqliteSite();
    const t = await createTestApp(site);
    t.clock.now = T0;
    let restored: TestApp | null = null;
    try {
      const product = await t.insertProduct({ photo: false });
      const materials = product.materials.filter((m) => m.identity_id === 0 && m.attr === 0);
      expect(materials.length).toBeGreaterThanOrEqual(3);
      const customers = await Promise.all([newCustomer(t), newCustomer(t), newCustomer(t)]);

      const orders: AckedOrder[] = [];
      const files: AckedFile[] = [];
      const failures: string[] = [];
      let stop = false;
      let n = 0;
      // Each customer keeps creating an order and uploading three scans to it, one call after another.
      const worker = async (customer: (typeof customers)[number]) => {
        while (!stop) {
          const { userOrderId, applicants } = await draftOrder(t, customer, product.visa_product_id, [0]);
          orders.push({ userOrderId, token: customer.token, at: Date.now() });
          for (const material of materials.slice(0, 3)) {
            if (stop) break;
            const scan = uniqueScan((n += 1));
            const answer = await upload(
              t,
              customer.token,
              { user_order_id: userOrderId, applicant_id: applicants[0]!.applicant_id, material_id: material.material_id },
              { content: scan.content, name: scan.name },
            );
            if (answer.body.ret !== 0) {
              failures.push(answer.body.msg);
              continue;
            }
            files.push({ fileId: answer.body.body.file.file_id as number, userOrderId, token: customer.token, content: scan.content, at: Date.now() });
          }
        }
      };
      const load = customers.map(worker);
      while (orders.length < 15) await new Promise((resolve) => setTimeout(resolve, 20));

      const backupDir = join(tempDir('visa-backup-'), 'nightly');
      const backupStarted = Date.now();
      const backup = await cli('backup', backupDir, site.config);
      const backupEnded = Date.now();
      stop = true;
      await Promise.all(load);

      expect(failures).toEqual([]);
      expect(backup.status, backup.stderr).toBe(0);
      expect(backup.stderr).not.toContain('WARNING');
      expect(backup.stdout).toMatch(/backup written to .*nightly: database [\d.]+ MB at migration 2026-/);
      const before = { orders: orders.filter((o) => o.at < backupStarted), files: files.filter((f) => f.at < backupStarted) };
      const during = files.filter((f) => f.at >= backupStarted && f.at <= backupEnded);
      expect(before.orders.length).toBeGreaterThanOrEqual(15);
      expect(before.files.length).toBeGreaterThanOrEqual(30);
      // Under load: the app kept acknowledging uploads while the backup ran.
      expect(during.length).toBeGreaterThan(0);

      const manifest = JSON.parse(readFileSync(join(backupDir, MANIFEST_FILE), 'utf8'));
      expect(manifest).toMatchObject({
        format: 'visa-platform-backup',
        database: { kind: 'sqlite', integrity: 'ok' },
        uploads: { included: true, missing: [] },
      });
      expect(manifest.database.sha256).toBe(sha256(readFileSync(join(backupDir, DATABASE_FILE))));
      expect(manifest.rows.user_order).toBeGreaterThanOrEqual(before.orders.length);
      expect(manifest.rows.order_material_file).toBeGreaterThanOrEqual(before.files.length);

      // Restore into a fresh place: a new SQLite file and upload folder.
      const fresh = tempDir('visa-restored-');
      const restoredConfig = testConfig({ SQLITE_FILE: join(fresh, 'data', 'visa.db'), UPLOAD_DIR: join(fresh, 'data', 'uploads') });
      const restore = await cli('restore', backupDir, restoredConfig);
      expect(restore.status, restore.stderr).toBe(0);
      expect(restore.stdout).toContain(`uploads: ${manifest.uploads.files} files in ${join(restoredConfig.UPLOAD_DIR, 'materials')}`);

      // Migrations are current on it.
      const check = openDatabase(restoredConfig.database);
      expect(await migrateToLatest(check)).toEqual([]);
      await check.destroy();
      // The restored upload folder is exactly the backup's set of objects.
      const listed = readFileSync(join(backupDir, UPLOAD_LIST_FILE), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(66));
      expect(filesUnder(restoredConfig.UPLOAD_DIR)).toEqual(listed.sort());

      // The app starts on it.
      restored = await createTestApp({ config: restoredConfig, kind: 'sqlite', open: () => openDatabase(restoredConfig.database), drop: async () => {} });
      restored.clock.now = T0;

      // Consistent: every file row has its file, with the bytes its row describes.
      const rows = await restored.db.selectFrom('order_material_file').select(['file_id', 'storage_key', 'sha256', 'size_bytes']).execute();
      expect(rows.length).toBe(manifest.rows.order_material_file);
      for (const row of rows) {
        // Encrypted at rest (decision 0043): the row describes the file as opened.
        const bytes = await storedPlaintext(restoredConfig.UPLOAD_DIR, row.storage_key, restoredConfig.fileKeyring);
        expect({ file_id: row.file_id, sha256: sha256(bytes), size: bytes.length }).toEqual({ file_id: row.file_id, sha256: row.sha256, size: row.size_bytes });
      }

      // Every order acknowledged before the backup began is there, for its customer (sessions came back too).
      for (const order of before.orders) {
        const detail = await restored.call('/www/order/order_detail_get', { user_order_id: order.userOrderId }, { token: order.token });
        expect({ order: order.userOrderId, ret: detail.body.ret }).toEqual({ order: order.userOrderId, ret: 0 });
      }
      // Every file acknowledged before it began is served, byte for byte.
      for (const file of before.files) {
        const served = await restored.app.inject({ method: 'GET', url: `/files/material/${file.fileId}`, headers: { 'x-token': file.token } });
        expect({ file: file.fileId, status: served.statusCode }).toEqual({ file: file.fileId, status: 200 });
        expect(sha256(served.rawPayload)).toBe(sha256(file.content));
      }
    } finally {
      await restored?.close(false);
      await t.close(false);
    }
  });

  it('refuses a folder that is not a backup, and leaves the database alone', async () => {
    const site = await sqliteSite();
    const notBackup = tempDir('visa-not-backup-');
    writeFileSync(join(notBackup, 'visa.db'), 'not a backup');
    const before = readFileSync(site.config.SQLITE_FILE);

    const run = await cli('restore', notBackup, site.config);
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(`${notBackup} is not a backup made by npm run backup (no manifest.json; an unfinished backup has none either)`);
    const missing = await cli('restore', join(notBackup, 'nowhere'), site.config);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('is not a backup made by npm run backup');
    expect(readFileSync(site.config.SQLITE_FILE).equals(before)).toBe(true);
    expect(readdirSync(join(site.config.SQLITE_FILE, '..')).filter((name) => name.includes('pre-restore'))).toEqual([]);
  });

  it('refuses a damaged backup (database or file checksum) before touching anything', async () => {
    const site = await sqliteSite();
    const t = await createTestApp(site);
    t.clock.now = T0;
    const backupDir = join(tempDir('visa-backup-'), 'b');
    try {
      const product = await t.insertProduct({ photo: false });
      const material = product.materials.find((m) => m.identity_id === 0 && m.attr === 0)!;
      const customer = await newCustomer(t);
      const { userOrderId, applicants } = await draftOrder(t, customer, product.visa_product_id, [0]);
      const scan = uniqueScan(1);
      const answer = await upload(
        t,
        customer.token,
        { user_order_id: userOrderId, applicant_id: applicants[0]!.applicant_id, material_id: material.material_id },
        scan,
      );
      expect(answer.body.ret).toBe(0);
      const backup = await cli('backup', backupDir, site.config);
      expect(backup.status, backup.stderr).toBe(0);
    } finally {
      await t.close(false);
    }
    const target = testConfig({ SQLITE_FILE: join(tempDir('visa-target-'), 'visa.db'), UPLOAD_DIR: join(tempDir('visa-target-uploads-'), 'u') });
    mkdirSync(join(target.UPLOAD_DIR, 'materials'), { recursive: true });
    writeFileSync(target.SQLITE_FILE, 'the site as it is');

    // One byte of the database copy changed.
    const databaseCopy = join(backupDir, DATABASE_FILE);
    const good = readFileSync(databaseCopy);
    const bad = Buffer.from(good);
    bad[bad.length - 100] = bad[bad.length - 100]! ^ 0xff;
    writeFileSync(databaseCopy, bad);
    const damagedDatabase = await cli('restore', backupDir, target);
    expect(damagedDatabase.status).toBe(1);
    expect(damagedDatabase.stderr.trim().split('\n').at(-1)).toBe(`${databaseCopy} does not match the SHA-256 in manifest.json: the backup is damaged`);
    writeFileSync(databaseCopy, good);

    // One byte of an uploaded file changed.
    const [key] = filesUnder(join(backupDir, UPLOADS_DIR));
    const object = join(backupDir, UPLOADS_DIR, key!);
    const bytes = readFileSync(object);
    bytes[10] = bytes[10]! ^ 0xff;
    writeFileSync(object, bytes);
    const damagedFile = await cli('restore', backupDir, target);
    expect(damagedFile.status).toBe(1);
    expect(damagedFile.stderr.trim().split('\n').at(-1)).toBe(`${object} does not match its SHA-256 in uploads.sha256: the backup is damaged`);

    // Nothing was touched.
    expect(readFileSync(target.SQLITE_FILE, 'utf8')).toBe('the site as it is');
    expect(readdirSync(join(target.SQLITE_FILE, '..'))).toEqual(['visa.db']);
    expect(readdirSync(target.UPLOAD_DIR)).toEqual(['materials']);
  });

  it('restore refuses while a process has the database open, then moves the old database and files aside', async () => {
    const site = await sqliteSite();
    const backupDir = join(tempDir('visa-backup-'), 'b');
    mkdirSync(join(site.config.UPLOAD_DIR, 'materials', 'ab'), { recursive: true });
    const kept = `materials/ab/ab${'1'.repeat(30)}`;
    writeFileSync(join(site.config.UPLOAD_DIR, kept), 'in the backup');
    expect((await cli('backup', backupDir, site.config)).status).toBe(0);
    const later = `materials/ab/ab${'2'.repeat(30)}`;
    writeFileSync(join(site.config.UPLOAD_DIR, later), 'after the backup');

    // A server's connection: open, used once, then idle.
    const server = openDatabase(site.config.database);
    await server.db.selectFrom('account').select('id').execute();
    try {
      const refused = await cli('restore', backupDir, site.config);
      expect(refused.status).toBe(1);
      expect(refused.stderr.trim()).toBe(`${site.config.SQLITE_FILE} is in use (a server or another program has it open): stop the server first, then restore`);
    } finally {
      await server.destroy();
    }

    const run = await cli('restore', backupDir, site.config);
    expect(run.status, run.stderr).toBe(0);
    expect(filesUnder(join(site.config.UPLOAD_DIR, 'materials'))).toEqual([kept.slice('materials/'.length)]);
    const aside = readdirSync(site.config.UPLOAD_DIR).filter((name) => name.startsWith('materials.pre-restore-'));
    expect(aside).toHaveLength(1);
    expect(filesUnder(join(site.config.UPLOAD_DIR, aside[0]!))).toEqual([kept, later].map((key) => key.slice('materials/'.length)));
    expect(readdirSync(join(site.config.SQLITE_FILE, '..')).filter((name) => name.startsWith('visa.db.pre-restore-'))).toHaveLength(1);
  });

  it('backup refuses a folder that is not empty, and prints pg_dump for PostgreSQL without copying anything', async () => {
    const site = await sqliteSite();
    const used = tempDir('visa-backup-used-');
    writeFileSync(join(used, 'something'), 'x');
    const refused = await cli('backup', used, site.config);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`${used} is not empty: back up into a new folder`);
    expect(readdirSync(used)).toEqual(['something']);

    const target = join(tempDir('visa-backup-pg-'), 'b');
    const postgres = await cli('backup', target, site.config, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(postgres.status).toBe(1);
    expect(postgres.stderr).toContain(`pg_dump -Fc --no-owner --file ${join(target, 'database.dump')} "$DATABASE_URL"`);
    expect(postgres.stderr).not.toContain('nobody@');
    expect(existsSync(target)).toBe(false);
  });
});
