// The back office's operators on a real database: login with password and
// TOTP, enrolment after a supervisor's reset, sessions, throttling, and the
// wall between customer and operator tokens (both ways).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../common/signing.ts';
import { createTestApp, insertOperator, type TestApp, type TestOperator } from '../../test-support/test-app.ts';
import { totpCode } from './totp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const STEP = 30_000;
const MINUTE = 60_000;

/** The next 30-second step: a code of the step just used is refused, a later one is fine. */
function nextStep() {
  t.clock.now += STEP;
}

function login(op: Pick<TestOperator, 'account' | 'password'>, code?: string, remoteAddress?: string) {
  return t.call('/admin-api/operator_login', { account: op.account, password: sha256Hex(op.password), ...(code ? { code } : {}) }, { remoteAddress });
}

describe(`operator login (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('logs in with password digest and the TOTP code, and the token reaches /admin-api', async () => {
    const op = await insertOperator(t.db, { name: '张操作' });
    nextStep();
    const answer = await login(op, op.code(t.clock.now));
    expect(answer.body.ret).toBe(0);
    expect(answer.body.body).toMatchObject({
      next: 'done',
      operator: { operator_id: op.operatorId, account: op.account, name: '张操作', role: 'operator', role_label: '操作员' },
    });
    // The token is in the HttpOnly, SameSite=Strict cookie only, never in the answer a script reads.
    expect(answer.body.body).not.toHaveProperty('token');
    expect(JSON.stringify(answer.body)).not.toMatch(/[A-Za-z0-9_-]{43}/);
    const cookie = String(answer.raw.headers['set-cookie']);
    expect(cookie).toMatch(/^admin_token=[A-Za-z0-9_-]{43}; Expires=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const token = /^admin_token=([^;]+)/.exec(cookie)![1]!;
    // The browser's calls carry the cookie, not X-Token.
    const me = await t.call('/admin-api/operator_me', {}, { headers: { cookie: `admin_token=${token}` } });
    expect(me.body).toMatchObject({ ret: 0, body: { operator_id: op.operatorId, role: 'operator' } });
    // Only hashes are stored (test operators at the test cost; the app's own at 2^17, checked below).
    const row = await t.db.selectFrom('operator').select(['password_hash', 'last_login_at']).where('id', '=', op.operatorId).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(row.password_hash).not.toContain(sha256Hex(op.password));
    expect(row.last_login_at).toBe(t.clock.now);
    const sessions = await t.db.selectFrom('operator_session').select('token_hash').where('operator_id', '=', op.operatorId).execute();
    expect(sessions.map((s) => s.token_hash)).not.toContain(token);
  });

  it('hashes the password of an operator the app creates with scrypt N=2^17', async () => {
    const created = await t.services.operator.create({
      account: `slowhash_${Date.now().toString(36)}`,
      name: '慢哈希',
      role: 'operator',
      passwordDigest: sha256Hex('Staff@123456'),
    });
    const row = await t.db.selectFrom('operator').select('password_hash').where('id', '=', created.operator_id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(row.password_hash).not.toContain(sha256Hex('Staff@123456'));
  });

  it('refuses a login without the code, with a wrong code, with a reused code and with a wrong password, all with one message', async () => {
    const op = await insertOperator(t.db);
    nextStep();
    const code = op.code(t.clock.now);
    const wrong = code === '000000' ? '111111' : '000000';
    for (const answer of [await login(op), await login(op, wrong), await login({ ...op, password: 'not-the-password' }, code)]) {
      expect(answer.body).toEqual({ ret: 2001, msg: '账号、密码或动态验证码错误', body: null });
    }
    expect((await login(op, code)).body.ret).toBe(0);
    // The same code again — within its 30 s or the next window — is refused.
    expect((await login(op, code)).body.ret).toBe(2001);
    t.clock.now += STEP;
    expect((await login(op, code)).body.ret).toBe(2001);
    // A code of a later step is accepted.
    expect((await login(op, op.code(t.clock.now))).body.ret).toBe(0);
    // A code two steps old is refused even if never used.
    const old = op.code(t.clock.now - 2 * STEP);
    t.clock.now += STEP;
    expect((await login(op, old)).body.ret).toBe(2001);
  });

  it('accepts the code of the previous or next 30-second window (clock drift)', async () => {
    const op = await insertOperator(t.db);
    nextStep();
    expect((await login(op, op.code(t.clock.now - STEP))).body.ret).toBe(0);
    nextStep();
    nextStep();
    expect((await login(op, op.code(t.clock.now + STEP))).body.ret).toBe(0);
  });

  it('throttles failed logins per account and address, then refuses even the right credentials', async () => {
    const op = await insertOperator(t.db);
    const address = '203.0.113.77';
    for (let i = 0; i < 5; i += 1) expect((await login(op, '000000', address)).body.ret).toBe(2001);
    nextStep();
    const locked = await login(op, op.code(t.clock.now), address);
    expect(locked.body.ret).toBe(1302);
    expect(locked.body.msg).toMatch(/请\d+分钟后再试/);
    // The lock ends after 15 minutes.
    t.clock.now += 15 * MINUTE + STEP;
    expect((await login(op, op.code(t.clock.now), address)).body.ret).toBe(0);
  });

  it('checks at most 5 of 50 parallel logins with the right password and wrong codes', async () => {
    const op = await insertOperator(t.db);
    nextStep();
    const right = op.code(t.clock.now);
    const wrong = right === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 50 }, () => login(op, wrong, '203.0.113.78')));
    const rets = answers.map((answer) => answer.body.ret);
    expect(rets.filter((ret) => ret === 2001).length).toBeLessThanOrEqual(5);
    expect(rets.filter((ret) => ret === 1302).length).toBeGreaterThanOrEqual(45);
    expect((await login(op, right, '203.0.113.78')).body.ret).toBe(1302);
  });

  it('refuses a disabled operator at login and ends their sessions', async () => {
    const disabled = await insertOperator(t.db, { status: 'disabled' });
    nextStep();
    expect((await login(disabled, disabled.code(t.clock.now))).body).toEqual({ ret: 2002, msg: '账号已停用，请联系主管', body: null });

    const supervisor = await t.operator({ role: 'supervisor' });
    const op = await t.operator();
    expect((await op.call('/admin-api/operator_me')).body.ret).toBe(0);
    expect((await supervisor.call('/admin-api/operator/operator_status_set', { operator_id: op.operatorId, status: 'disabled' })).body.ret).toBe(0);
    const after = await op.call('/admin-api/operator_me');
    expect(after.status).toBe(401);
    expect(after.body.ret).toBe(1201);
    nextStep();
    expect((await login(op, op.code(t.clock.now))).body.ret).toBe(2002);
    // Enabled again: logs in.
    expect((await supervisor.call('/admin-api/operator/operator_status_set', { operator_id: op.operatorId, status: 'active' })).body.ret).toBe(0);
    expect((await login(op, op.code(t.clock.now))).body.ret).toBe(0);
  });

  it('logs out (the token is refused afterwards) and expires idle and old sessions', async () => {
    const op = await t.operator();
    expect((await op.call('/admin-api/operator_logout')).body.ret).toBe(0);
    expect((await op.call('/admin-api/operator_me')).status).toBe(401);

    const idle = await t.operator();
    t.clock.now += 59 * MINUTE;
    expect((await idle.call('/admin-api/operator_me')).body.ret).toBe(0);
    t.clock.now += 61 * MINUTE;
    expect((await idle.call('/admin-api/operator_me')).status).toBe(401);

    const busy = await t.operator();
    // Active every 50 minutes for 11 h 40 min: alive; past 12 hours: over, however active.
    for (let turn = 0; turn < 14; turn += 1) {
      t.clock.now += 50 * MINUTE;
      expect((await busy.call('/admin-api/operator_me')).body.ret).toBe(0);
    }
    t.clock.now += 50 * MINUTE;
    expect((await busy.call('/admin-api/operator_me')).status).toBe(401);
  });
});

describe('customer and operator tokens never cross', () => {
  it('refuses a customer token on every kind of /admin-api call', async () => {
    const { account, password } = await t.createAccount();
    const token = await t.login(account, password);
    for (const path of ['/admin-api/operator_me', '/admin-api/operator/operator_list']) {
      const answer = await t.call(path, {}, { token });
      expect(answer.status, path).toBe(401);
      expect(answer.body).toEqual({ ret: 1201, msg: '登录已过期，请重新登录', body: null });
    }
    // The back office's logout needs no session (it clears its cookie), and ends no customer's.
    expect((await t.call('/admin-api/operator_logout', {}, { token })).body.ret).toBe(0);
    expect((await t.call('/www/user/user_info_query', {}, { token })).body.ret).toBe(0);
  });

  it('refuses an operator token (even a supervisor’s) on customer calls', async () => {
    for (const role of ['operator', 'supervisor'] as const) {
      const op = await t.operator({ role });
      for (const path of ['/www/user/user_info_query', '/www/order/order_list']) {
        const answer = await op.call(path, {});
        expect(answer.status, path).toBe(401);
        expect(answer.body.ret).toBe(1201);
      }
      // The customer's logout needs no session (it clears its cookie) and ends no operator's.
      expect((await op.call('/www/account_logout', {})).body.ret).toBe(0);
      // The token still works where it belongs.
      expect((await op.call('/admin-api/operator_me')).body.ret).toBe(0);
    }
  });

  it('marks every back-office answer noindex, and no customer call', async () => {
    const op = await t.operator();
    expect((await op.call('/admin-api/operator_me')).raw.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect((await t.call('/admin-api/operator_me')).raw.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect((await t.call('/www/sys_config_get')).raw.headers['x-robots-tag']).toBeUndefined();
  });

  it('refuses a customer login with an operator’s credentials and the reverse', async () => {
    const op = await insertOperator(t.db);
    expect((await t.call('/www/account_login', { account: op.account, password: sha256Hex(op.password) })).body.ret).toBe(1301);
    const customer = await t.createAccount();
    nextStep();
    expect((await login(customer, '123456')).body.ret).toBe(2001);
  });
});

describe('supervisor calls', () => {
  it('are refused to an operator (2003) and without a session (401)', async () => {
    const op = await t.operator();
    const target = await insertOperator(t.db);
    const calls: Array<[string, object]> = [
      ['/admin-api/operator/operator_list', {}],
      ['/admin-api/operator/operator_create', { account: 'someone_new', name: '新人', role: 'operator', password: sha256Hex('Secret@12345') }],
      ['/admin-api/operator/operator_status_set', { operator_id: target.operatorId, status: 'disabled' }],
      ['/admin-api/operator/operator_totp_reset', { operator_id: target.operatorId }],
    ];
    for (const [path, payload] of calls) {
      expect((await op.call(path, payload)).body, path).toEqual({ ret: 2003, msg: '仅主管可以执行此操作', body: null });
      expect((await t.call(path, payload)).status, path).toBe(401);
    }
    expect(await t.db.selectFrom('operator').select('id').where('account', '=', 'someone_new').executeTakeFirst()).toBeUndefined();
  });

  it('create an operator whose secret is shown once, list operators, refuse a taken account and changes to oneself', async () => {
    const supervisor = await t.operator({ role: 'supervisor' });
    const account = `new_${Date.now().toString(36)}`;
    const created = await supervisor.call('/admin-api/operator/operator_create', {
      account,
      name: '李新',
      role: 'operator',
      password: sha256Hex('Welcome@2026'),
    });
    expect(created.body.ret).toBe(0);
    const { operator_id, secret, otpauth_uri } = created.body.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    nextStep();
    expect((await login({ account, password: 'Welcome@2026' }, totpCode(secret, t.clock.now))).body.ret).toBe(0);

    const list = await supervisor.call('/admin-api/operator/operator_list');
    const row = list.body.body.list.find((item: { operator_id: number }) => item.operator_id === operator_id);
    expect(row).toMatchObject({ account, name: '李新', role: 'operator', status: 'active', status_label: '启用', totp_enrolled: true });
    expect(row.last_login_at).toBe(t.clock.now);
    expect(JSON.stringify(list.body.body)).not.toContain(secret);

    expect((await supervisor.call('/admin-api/operator/operator_create', { account, name: '重复', role: 'operator', password: sha256Hex('x') })).body.ret).toBe(
      2005,
    );
    expect(
      (await supervisor.call('/admin-api/operator/operator_create', { account: 'a b', name: '空格', role: 'operator', password: sha256Hex('x') })).body.ret,
    ).toBe(1001);
    expect(
      (await supervisor.call('/admin-api/operator/operator_create', { account: 'role_bad', name: '角色', role: 'admin', password: sha256Hex('x') })).body.ret,
    ).toBe(1001);
    expect((await supervisor.call('/admin-api/operator/operator_status_set', { operator_id: supervisor.operatorId, status: 'disabled' })).body.ret).toBe(2006);
    expect((await supervisor.call('/admin-api/operator/operator_totp_reset', { operator_id: supervisor.operatorId })).body.ret).toBe(2006);
    expect((await supervisor.call('/admin-api/operator/operator_totp_reset', { operator_id: 2_000_000_000 })).body.ret).toBe(2004);
  });

  it('reset the second factor: sessions end, the next login enrols a new secret confirmed by a code, the old secret no longer works', async () => {
    const supervisor = await t.operator({ role: 'supervisor' });
    const op = await t.operator();
    const oldSecret = op.totpSecret!;
    expect((await supervisor.call('/admin-api/operator/operator_totp_reset', { operator_id: op.operatorId })).body.ret).toBe(0);
    expect((await op.call('/admin-api/operator_me')).status).toBe(401);

    // Password alone: the enrolment answer with a new secret — the same one until confirmed.
    const first = await login(op);
    expect(first.body.ret).toBe(0);
    expect(first.body.body).toMatchObject({ next: 'enroll' });
    const secret = first.body.body.secret as string;
    expect(secret).not.toBe(oldSecret);
    expect(first.body.body.otpauth_uri).toContain(`secret=${secret}`);
    expect(first.body.body.qr_image).toMatch(/^data:image\/png;base64,/);
    expect((await login(op)).body.body.secret).toBe(secret);
    // A wrong password shows nothing.
    expect((await login({ ...op, password: 'wrong-password' })).body.ret).toBe(2001);
    // A code of the old secret does not confirm.
    nextStep();
    expect((await login(op, totpCode(oldSecret, t.clock.now))).body.ret).toBe(2001);
    const listed = await supervisor.call('/admin-api/operator/operator_list');
    expect(listed.body.body.list.find((row: { operator_id: number }) => row.operator_id === op.operatorId).totp_enrolled).toBe(false);

    // A code of the new one does, and logs in.
    nextStep();
    const confirmed = await login(op, totpCode(secret, t.clock.now));
    expect(confirmed.body.body).toMatchObject({ next: 'done', operator: { operator_id: op.operatorId } });
    // From now on the code is required, and it is the new secret's.
    nextStep();
    expect((await login(op)).body.ret).toBe(2001);
    expect((await login(op, totpCode(oldSecret, t.clock.now))).body.ret).toBe(2001);
    expect((await login(op, totpCode(secret, t.clock.now))).body.ret).toBe(0);
  });
});
