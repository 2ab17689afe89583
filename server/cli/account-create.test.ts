// `npm run account:create` creates an enterprise and its administrator, who can then log in.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../common/signing.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { createAccountService } from '../modules/account/account.service.ts';

function runCli(args: string[], sqliteFile: string) {
  // Always on its own SQLite file, even when the suite runs against PostgreSQL.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return spawnSync('node', ['--import', 'tsx', 'server/cli/account-create.ts', ...args], {
    env: { ...env, SQLITE_FILE: sqliteFile, APP_ENV: 'dev' },
    encoding: 'utf8',
  });
}

describe('account:create', () => {
  it('creates an enterprise with an administrator who can log in, and refuses a duplicate', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'visa-cli-')), 'cli.db');
    const args = [
      '--enterprise',
      '上海某某科技有限公司',
      '--kind',
      'agency',
      '--account',
      'acme_admin',
      '--password',
      'S3cure!pass',
      '--name',
      '张三',
      '--mobile',
      '13800138000',
    ];
    const created = runCli(args, file);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/created enterprise #\d+ and administrator acme_admin/);

    const database = openDatabase(loadConfig({ SQLITE_FILE: file }).database);
    try {
      const row = await database.db
        .selectFrom('account')
        .innerJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
        .select(['account.role', 'account.password_hash', 'enterprise.kind', 'enterprise.name'])
        .where('account.account', '=', 'acme_admin')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ role: 'admin', kind: 'agency', name: '上海某某科技有限公司' });
      expect(row.password_hash).toMatch(/^scrypt\$/);
      const service = createAccountService(database.db, { idleMs: 60_000, absoluteMs: 3_600_000 });
      const login = await service.login({ account: 'acme_admin', passwordDigest: sha256Hex('S3cure!pass'), ip: '127.0.0.1', userAgent: null });
      expect(login.token).toBeTruthy();
    } finally {
      await database.destroy();
    }

    const duplicate = runCli(args, file);
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toContain('账号 acme_admin 已存在');
  });

  it('explains its usage when a field is missing', () => {
    const result = runCli(['--enterprise', 'x'], join(mkdtempSync(join(tmpdir(), 'visa-cli-')), 'cli.db'));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: npm run account:create');
  });
});
