// The start-up checks as functions (server/main.test.ts runs them through main.ts).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { checkSqlite, checkWritableFolder, startupChecks, withoutPassword } from './startup-checks.ts';

const dir = mkdtempSync(join(tmpdir(), 'visa-startup-'));
const notAFolder = join(dir, 'a-file');
writeFileSync(notAFolder, '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const savedTmpdir = process.env.TMPDIR;
afterEach(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
});

describe('start-up checks', () => {
  it('show URLs without their password', () => {
    expect(withoutPassword('postgres://app:s3cret@db.internal:5432/visa')).toBe('postgres://app:***@db.internal:5432/visa');
    expect(withoutPassword('rediss://default:p%40ss@cache:6380/1')).toBe('rediss://default:***@cache:6380/1');
    expect(withoutPassword('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('make a missing folder, write a probe file and leave nothing behind', () => {
    const folder = join(dir, 'new', 'uploads');
    expect(checkWritableFolder('UPLOAD_DIR', folder)).toBeNull();
    expect(readdirSync(folder)).toEqual([]);
    expect(checkWritableFolder('UPLOAD_DIR', join(notAFolder, 'x'))).toMatch(/^UPLOAD_DIR: cannot create or write .*a-file\/x \(ENOTDIR/);
  });

  it('open and write a new SQLite file (an in-memory database needs nothing)', () => {
    expect(checkSqlite(join(dir, 'db', 'visa.db'))).toBeNull();
    expect(checkSqlite(':memory:')).toBeNull();
    expect(checkSqlite(join(notAFolder, 'visa.db'))).toMatch(/^SQLITE_FILE: cannot create the folder .*a-file \(E/);
  });

  it('check what the configuration uses: the upload folder, or the temp folder S3 uploads are spooled to; the outbox folder without SMTP', async () => {
    const base = { SQLITE_FILE: ':memory:', UPLOAD_DIR: join(notAFolder, 'uploads'), OUTBOX_DIR: join(notAFolder, 'outbox') };
    expect(await startupChecks(loadConfig(base))).toEqual([expect.stringMatching(/^UPLOAD_DIR: /), expect.stringMatching(/^OUTBOX_DIR: /)]);
    expect(await startupChecks(loadConfig({ ...base, SMTP_URL: 'smtp://127.0.0.1:2525' }))).toEqual([expect.stringMatching(/^UPLOAD_DIR: /)]);
    process.env.TMPDIR = join(notAFolder, 'tmp');
    const s3 = { ...base, SMTP_URL: 'smtp://127.0.0.1:2525', S3_BUCKET: 'visa', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    expect(await startupChecks(loadConfig(s3))).toEqual([expect.stringMatching(/^TMPDIR \(S3 uploads are spooled there\): cannot create or write/)]);
  });
});
