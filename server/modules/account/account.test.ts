// Login, sessions and the account calls, on a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../common/signing.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { createLoginThrottle } from './login-throttle.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const HOUR = 3_600_000;

describe(`login (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('logs in with the SHA-256 digest and returns a fresh token each time', async () => {
    const { account, password } = await t.createAccount();
    const first = await t.call('/www/account_login', { account, password: sha256Hex(password) });
    expect(first.status).toBe(200);
    expect(first.body.ret).toBe(0);
    expect(first.body.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    const second = await t.login(account, password);
    expect(second).not.toBe(first.body.body.token);
  });

  it('stores neither the token nor the digest, only slow hashes', async () => {
    // Made by the app's own service, with the production cost (test data uses a cheaper one: server/test-support/password.ts).
    const account = `slowhash_${Date.now().toString(36)}`;
    const password = 'Passw0rd!';
    const { accountId } = await t.services.account.createEnterpriseWithAdmin({
      enterpriseName: '慢哈希企业',
      enterpriseKind: 'company',
      adminAccount: account,
      adminPasswordDigest: sha256Hex(password),
      adminName: '慢哈希',
    });
    const token = await t.login(account, password);
    const row = await t.db.selectFrom('account').select('password_hash').where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(row.password_hash).not.toContain(sha256Hex(password));
    const sessions = await t.db.selectFrom('account_session').select('token_hash').where('account_id', '=', accountId).execute();
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) {
      expect(session.token_hash).not.toBe(token);
      expect(session.token_hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('refuses a wrong password, an unknown account and the plain password instead of its digest', async () => {
    const { account, password } = await t.createAccount();
    for (const payload of [
      { account, password: sha256Hex('wrong-password') },
      { account: 'nobody-here', password: sha256Hex(password) },
      { account, password },
    ]) {
      const result = await t.call('/www/account_login', payload);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ ret: 1301, msg: '账号或密码错误', body: null });
    }
  });

  it('refuses empty and over-long fields with 参数错误', async () => {
    for (const payload of [
      {},
      { account: '', password: 'x' },
      { account: 'a', password: '' },
      { account: 'a'.repeat(51), password: sha256Hex('x') },
      { account: 1, password: 2 },
    ]) {
      const result = await t.call('/www/account_login', payload);
      expect(result.body).toMatchObject({ ret: 1001, msg: '参数错误' });
    }
  });

  it('slows and then refuses repeated failures, and lets the lock expire', async () => {
    const { account, password } = await t.createAccount();
    const wrong = { account, password: sha256Hex('nope') };
    const started = Date.now();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await t.call('/www/account_login', wrong)).body.ret).toBe(1301);
    }
    // Failures 3, 4 and 5 are delayed 400, 800 and 1200 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2400);
    const locked = await t.call('/www/account_login', { account, password: sha256Hex(password) });
    expect(locked.body).toMatchObject({ ret: 1302, msg: '登录失败次数过多，请15分钟后再试' });

    t.clock.now += 16 * 60_000;
    expect((await t.call('/www/account_login', { account, password: sha256Hex(password) })).body.ret).toBe(0);
  });

  it('keeps a lock on one address from locking out the same account elsewhere', async () => {
    const { account, password } = await t.createAccount();
    const wrong = { account, password: sha256Hex('nope') };
    // An attacker at another address has locked this account there.
    await t.db
      .insertInto('login_throttle')
      .values({
        throttle_key: `customer:account_ip:${account}|203.0.113.9`,
        failures: 0,
        window_started_at: t.clock.now,
        locked_until: t.clock.now + 15 * 60_000,
      })
      .execute();
    expect((await t.call('/www/account_login', { account, password: sha256Hex(password) })).body.ret).toBe(0);
    expect((await t.call('/www/account_login', wrong)).body.ret).toBe(1301);
  });
});

describe(`login throttling under parallel requests (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('checks at most 5 of 25 parallel wrong passwords from one address, and refuses the rest before any check', async () => {
    const { account, password } = await t.createAccount();
    const address = '198.51.100.25';
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => t.call('/www/account_login', { account, password: sha256Hex('wrong-guess') }, { remoteAddress: address })),
    );
    const rets = answers.map((answer) => answer.body.ret);
    expect(rets.filter((ret) => ret === 1301).length).toBeLessThanOrEqual(5);
    expect(rets.filter((ret) => ret === 1302).length).toBeGreaterThanOrEqual(20);
    expect(rets.every((ret) => ret === 1301 || ret === 1302)).toBe(true);
    // Locked now: even the right password is refused from that address.
    expect((await t.call('/www/account_login', { account, password: sha256Hex(password) }, { remoteAddress: address })).body.ret).toBe(1302);
  });

  it('gives a good login its attempt back: an office logging in more often than the address limit is never throttled', async () => {
    const throttle = createLoginThrottle(t.db, 'customer');
    const address = '198.51.100.26';
    // 35 good logins of different accounts from one address (its limit counts 30 attempts).
    for (let i = 0; i < 35; i += 1) await (await throttle.reserve(`office${i}`, address, t.clock.now)).succeeded();
    const rows = await t.db.selectFrom('login_throttle').select(['throttle_key', 'failures']).where('throttle_key', 'like', `%${address}%`).execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => Number(row.failures) === 0)).toBe(true);
  });

  it('keeps a burst of customer logins from locking operators out of the same office address', async () => {
    const address = '198.51.100.27';
    const throttle = createLoginThrottle(t.db, 'customer');
    // 30 failed customer logins (different accounts) fill the address's customer limit …
    for (let i = 0; i < 30; i += 1) await (await throttle.reserve(`guess${i}`, address, t.clock.now)).failed();
    const { account, password } = await t.createAccount();
    expect((await t.call('/www/account_login', { account, password: sha256Hex(password) }, { remoteAddress: address })).body.ret).toBe(1302);
    // … and an operator at the same address still logs in.
    const op = await t.operator();
    const staff = await t.call(
      '/admin-api/operator_login',
      { account: op.account, password: sha256Hex(op.password), code: op.code(t.clock.now) },
      { remoteAddress: address },
    );
    expect(staff.body.ret).toBe(0);
  });
});

describe('sessions', () => {
  it('answers 401 without a token, with a made-up token and after logout', async () => {
    const { account, password } = await t.createAccount();
    const none = await t.call('/www/user/user_info_query');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ ret: 1201, msg: '登录已过期，请重新登录', body: null });
    expect((await t.call('/www/user/user_info_query', {}, { token: 'made-up-token' })).status).toBe(401);

    const token = await t.login(account, password);
    expect((await t.call('/www/user/user_info_query', {}, { token })).status).toBe(200);
    expect((await t.call('/www/account_logout', {}, { token })).body.ret).toBe(0);
    expect((await t.call('/www/user/user_info_query', {}, { token })).status).toBe(401);
  });

  it('expires after the idle time and after the absolute time', async () => {
    const { account, password } = await t.createAccount();
    const idleToken = await t.login(account, password);
    t.clock.now += 13 * HOUR; // idle limit is 12 h
    expect((await t.call('/www/user/user_info_query', {}, { token: idleToken })).status).toBe(401);

    const activeToken = await t.login(account, password);
    // Used every 6 hours it stays alive, until the 7-day absolute limit.
    for (let hours = 6; hours < 168; hours += 6) {
      t.clock.now += 6 * HOUR;
      expect((await t.call('/www/user/user_info_query', {}, { token: activeToken })).status).toBe(200);
    }
    t.clock.now += 6 * HOUR;
    expect((await t.call('/www/user/user_info_query', {}, { token: activeToken })).status).toBe(401);
  });

  it('never lets one account read another account', async () => {
    const alice = await t.createAccount();
    const bob = await t.createAccount();
    const aliceToken = await t.login(alice.account, alice.password);
    const bobToken = await t.login(bob.account, bob.password);
    const aliceInfo = await t.call('/www/user/user_info_query', { account_id: bob.accountId, account: bob.account }, { token: aliceToken });
    expect(aliceInfo.body.body).toMatchObject({ account: alice.account, account_id: alice.accountId });
    expect(aliceInfo.body.body.enterprise.enterprise_id).toBe(alice.enterpriseId);
    const bobInfo = await t.call('/www/user/user_info_query', {}, { token: bobToken });
    expect(bobInfo.body.body).toMatchObject({ account: bob.account, account_id: bob.accountId });
    // Logging Alice out leaves Bob's session alone.
    await t.call('/www/account_logout', {}, { token: aliceToken });
    expect((await t.call('/www/user/user_info_query', {}, { token: bobToken })).status).toBe(200);
  });

  it('masks the mobile number and names the enterprise', async () => {
    const { account, password } = await t.createAccount();
    const token = await t.login(account, password);
    const info = (await t.call('/www/user/user_info_query', {}, { token })).body.body;
    expect(info.mobile_phone).toBe('138****8000');
    expect(info.enterprise).toMatchObject({ kind: 'company', kind_label: '企业' });
    expect(info).not.toHaveProperty('password_hash');
  });

  it('says 上次登录 is the login before this one, and null on the first login', async () => {
    const { account, password } = await t.createAccount();
    const firstToken = await t.login(account, password);
    expect((await t.call('/www/user/user_info_query', {}, { token: firstToken })).body.body.last_login_at).toBeNull();
    const firstAt = t.clock.now;
    t.clock.now += 2 * HOUR;
    const token = await t.login(account, password);
    expect((await t.call('/www/user/user_info_query', {}, { token })).body.body.last_login_at).toBe(firstAt);
  });

  it('answers the customer-service contact for a logged-in account only', async () => {
    expect((await t.call('/www/user/user_cs_query')).status).toBe(401);
    const { account, password } = await t.createAccount();
    const token = await t.login(account, password);
    const result = await t.call('/www/user/user_cs_query', {}, { token });
    expect(result.body.body).toMatchObject({ hotline: '400-820-6688', wechat: expect.any(String), email: expect.stringContaining('@') });
    expect(result.body.body.consultant).toBeNull();
  });
});
