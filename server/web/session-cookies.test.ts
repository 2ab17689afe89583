// The session cookies are the server's (issue 23, decision 0032): the login
// answers set them HttpOnly (customer: SameSite=Lax, operator: Strict, both
// Secure over HTTPS), the operator's token is never in a body a script could
// read, logout ends the session on the server and clears the cookie even when
// the session is already gone, and pages and API answers for a session are
// never stored by a cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../common/signing.ts';
import { buildApp } from '../app.ts';
import { createTestApp, createTestDatabase, signedHeaders, testConfig, type TestApp, type TestDatabase } from '../test-support/test-app.ts';
import { isPersonalPage } from './pages.ts';

let testDb: TestDatabase;
let t: TestApp;
beforeAll(async () => {
  testDb = await createTestDatabase();
  t = await createTestApp(testDb);
});
afterAll(async () => {
  await t.close(false);
  await testDb.drop();
});

function setCookieOf(answer: { raw: { headers: Record<string, unknown> } }): string {
  return String(answer.raw.headers['set-cookie'] ?? '');
}

describe(`session cookies (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it("the customer's login answer sets the token cookie HttpOnly and SameSite=Lax; logout revokes the session and clears it", async () => {
    const { account, password } = await t.createAccount();
    const login = await t.call('/www/account_login', { account, password: sha256Hex(password) });
    expect(login.body.ret).toBe(0);
    const token = login.body.body.token as string;
    // Spec §3: login_data keeps the token for the scripts; the cookie is the server's.
    expect(setCookieOf(login)).toBe(`token=${token}; Expires=${new Date(login.body.body.expires_at).toUTCString()}; Path=/; HttpOnly; SameSite=Lax`);

    const logout = await t.call('/www/account_logout', {}, { token });
    expect(logout.body.ret).toBe(0);
    expect(setCookieOf(logout)).toBe('token=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
    expect((await t.call('/www/user/user_info_query', {}, { token })).status).toBe(401);
    // Logging out again (an expired or revoked session) still clears the cookie.
    const again = await t.call('/www/account_logout', {}, { headers: { cookie: `token=${token}` } });
    expect(again.body.ret).toBe(0);
    expect(setCookieOf(again)).toContain('token=; Expires=Thu, 01 Jan 1970');
  });

  it("the operator's session lives in the admin_token cookie only; its logout ends it and clears the cookie", async () => {
    const op = await t.operator();
    const login = await t.call('/admin-api/operator_login', { account: op.account, password: sha256Hex(op.password), code: op.code(t.clock.now) });
    expect(login.body.ret).toBe(0);
    expect(login.body.body).not.toHaveProperty('token');
    const cookie = /^admin_token=([A-Za-z0-9_-]{43}); Expires=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/.exec(setCookieOf(login));
    expect(cookie, setCookieOf(login)).not.toBeNull();
    const sent = { headers: { cookie: `admin_token=${cookie![1]}` } };
    expect((await t.call('/admin-api/operator_me', {}, sent)).body.ret).toBe(0);

    const logout = await t.call('/admin-api/operator_logout', {}, sent);
    expect(logout.body.ret).toBe(0);
    expect(setCookieOf(logout)).toBe('admin_token=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; HttpOnly; SameSite=Strict');
    expect((await t.call('/admin-api/operator_me', {}, sent)).status).toBe(401);
    // A customer's token in the cookie's place is no operator session.
    const customer = await t.loggedInCustomer();
    expect((await t.call('/admin-api/operator_me', {}, { headers: { cookie: `admin_token=${customer.token}` } })).status).toBe(401);
  });

  it('marks both cookies Secure over HTTPS behind a trusted proxy', async () => {
    const handle = testDb.open();
    const config = testConfig({ TRUST_PROXY: 'true' });
    const { app } = await buildApp({ config: { ...config, database: testDb.config.database }, database: handle });
    try {
      const { account, password } = await t.createAccount();
      const customer = await app.inject({
        method: 'POST',
        url: '/www/account_login',
        headers: { ...signedHeaders({ now: Date.now() }), 'x-forwarded-proto': 'https' },
        payload: JSON.stringify({ account, password: sha256Hex(password) }),
      });
      expect(String(customer.headers['set-cookie'])).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
      const op = await t.operator();
      const staff = await app.inject({
        method: 'POST',
        url: '/admin-api/operator_login',
        headers: { ...signedHeaders({ now: Date.now() }), 'x-forwarded-proto': 'https' },
        payload: JSON.stringify({ account: op.account, password: sha256Hex(op.password), code: op.code(Date.now()) }),
      });
      expect(staff.json().ret).toBe(0);
      expect(String(staff.headers['set-cookie'])).toMatch(/; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    } finally {
      await app.close();
      await handle.destroy();
    }
  });

  it('API answers are never stored by a cache', async () => {
    const customer = await t.loggedInCustomer();
    const answer = await t.call('/www/user/user_info_query', {}, { token: customer.token });
    expect(answer.raw.headers['cache-control']).toBe('no-store');
    expect((await t.call('/www/sys_config_get')).raw.headers['cache-control']).toBe('no-store');
  });
});

describe('which pages are personal (Cache-Control: private, no-store)', () => {
  const request = (url: string, cookie?: string) => ({ url, headers: cookie ? { cookie } : {} }) as Parameters<typeof isPersonalPage>[0];
  it('every page of a session, and the personal paths whoever asks', () => {
    for (const url of [
      '/order/order-list',
      '/order/order-detail/5',
      '/ordering/upload/3?x=1',
      '/notice',
      '/user/personal-center',
      '/admin',
      '/admin/login',
      '/admin/orders/7',
    ])
      expect(isPersonalPage(request(url)), url).toBe(true);
    for (const url of ['/', '/visa/product/1', '/about'])
      for (const cookie of ['token=abc', 'admin_token=abc', 'x=1; token=abc']) expect(isPersonalPage(request(url, cookie)), `${url} ${cookie}`).toBe(true);
  });
  it("not a guest's public page", () => {
    for (const url of ['/', '/visa/product/1', '/visa/country/3', '/about', '/notices-of-something', '/users', '/orders'])
      expect(isPersonalPage(request(url, 'theme=dark')), url).toBe(false);
  });
});
