// `npm run operator:create` makes an operator who can log in with the printed
// secret; `npm run operator:otp` prints the code of the moment. The demo staff
// are seeded in dev and demo only, never in production.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../common/signing.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { DEMO_OPERATORS, seedDemoOperators } from '../db/seed/demo-operators.ts';
import { createOperatorService } from '../modules/operator/operator.service.ts';
import { totpCode } from '../modules/operator/totp.ts';
import { createTestApp, type TestApp } from '../test-support/test-app.ts';

function run(script: string, args: string[], sqliteFile: string) {
  // Always on its own SQLite file, even when the suite runs against PostgreSQL.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return spawnSync('node', ['--import', 'tsx', script, ...args], { env: { ...env, SQLITE_FILE: sqliteFile, APP_ENV: 'dev' }, encoding: 'utf8' });
}

describe('operator:create and operator:otp', () => {
  it('create an operator who logs in with the printed secret and the printed code, and refuse a duplicate', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'visa-cli-')), 'cli.db');
    const args = ['--account', 'li_lei', '--name', '李雷', '--role', 'supervisor', '--password', 'Str0ng!passw0rd', '--no-qr'];
    const created = run('server/cli/operator-create.ts', args, file);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/created supervisor li_lei \(#\d+\)/);
    const secret = /TOTP secret: ([A-Z2-7]{32})/.exec(created.stdout)![1]!;
    expect(created.stdout).toContain(`otpauth://totp/`);

    const otp = run('server/cli/operator-otp.ts', ['li_lei'], file);
    expect(otp.status, otp.stderr).toBe(0);
    const printed = otp.stdout.trim();
    expect(printed).toMatch(/^\d{6}$/);
    const at = Date.now();
    // The code of this step or the one just before (the CLI ran a moment ago).
    expect([totpCode(secret, at), totpCode(secret, at - 30_000)]).toContain(printed);

    const database = openDatabase(loadConfig({ SQLITE_FILE: file }).database);
    try {
      const service = createOperatorService(database.db, { idleMs: 60_000, absoluteMs: 3_600_000 });
      const login = await service.login({ account: 'li_lei', passwordDigest: sha256Hex('Str0ng!passw0rd'), code: printed, ip: '127.0.0.1', userAgent: null });
      expect(login).toMatchObject({ next: 'done', operator: { role: 'supervisor', name: '李雷' } });
    } finally {
      await database.destroy();
    }

    // A 产品编辑 (issue 26); a role the platform does not know is refused with the usage.
    const editor = run(
      'server/cli/operator-create.ts',
      ['--account', 'han_mei', '--name', '韩梅', '--role', 'catalogue_editor', '--password', 'Str0ng!passw0rd', '--no-qr'],
      file,
    );
    expect(editor.status, editor.stderr).toBe(0);
    expect(editor.stdout).toMatch(/created catalogue_editor han_mei \(#\d+\)/);
    const unknownRole = run('server/cli/operator-create.ts', ['--account', 'x_y', '--name', '某', '--role', 'admin', '--password', 'Str0ng!passw0rd'], file);
    expect(unknownRole.status).toBe(2);
    expect(unknownRole.stderr).toContain('operator|supervisor|catalogue_editor');
    const stored = openDatabase(loadConfig({ SQLITE_FILE: file }).database);
    try {
      expect(await stored.db.selectFrom('operator').select(['account', 'role']).orderBy('id').execute()).toEqual([
        { account: 'li_lei', role: 'supervisor' },
        { account: 'han_mei', role: 'catalogue_editor' },
      ]);
    } finally {
      await stored.destroy();
    }

    const duplicate = run('server/cli/operator-create.ts', args, file);
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toContain('该账号已存在');
    expect(run('server/cli/operator-create.ts', ['--account', 'x'], file).status).toBe(2);
    expect(run('server/cli/operator-otp.ts', ['nobody'], file).stderr).toContain('操作员不存在');
  });
});

describe('demo operators', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('are never seeded in production or tests', async () => {
    expect(await seedDemoOperators(t.services.operator, 'prod')).toBe(0);
    expect(await seedDemoOperators(t.services.operator, 'test')).toBe(0);
    const rows = await t.db.selectFrom('operator').select('account').execute();
    expect(rows.map((row) => row.account)).not.toContain('demo_operator');
    expect(rows.map((row) => row.account)).not.toContain('demo_supervisor');
  });

  it('are seeded once in dev/demo with the README’s secrets, and log in', async () => {
    expect(await seedDemoOperators(t.services.operator, 'demo')).toBe(2);
    expect(await seedDemoOperators(t.services.operator, 'dev')).toBe(0);
    for (const demo of DEMO_OPERATORS) {
      t.clock.now += 30_000;
      const answer = await t.call('/admin-api/operator_login', {
        account: demo.account,
        password: sha256Hex(demo.password),
        code: totpCode(demo.totpSecret, t.clock.now),
      });
      expect(answer.body.body).toMatchObject({ next: 'done', operator: { account: demo.account, role: demo.role } });
    }
  });
});
