// Every answer that is not a page carries the security headers too: API calls
// (good and refused), errors, the API reference and its JSON, static JSON.
// Pages are checked against the built app in tests/e2e/security.spec.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressLibraryFile } from '../modules/system/address-library.ts';
import { createTestApp, createTestDatabase, testConfig, type TestApp, type TestDatabase } from '../test-support/test-app.ts';
import { buildApp } from '../app.ts';
import { HSTS, PERMISSIONS_POLICY, isBackOffice } from './security-headers.ts';

/** A production site that starts: its own signing pair, the sandboxes allowed (staging) with their own secrets. */
const STAGING = {
  APP_ENV: 'prod',
  API_CLIENTS: '4:visa-web-prod:prod-secret-0123456789',
  PAYMENT_SANDBOX_IN_PROD: 'true',
  PAYMENT_SANDBOX_SECRET: 'staging-notify-secret-0123',
  COURIER_SANDBOX_IN_PROD: 'true',
  COURIER_SANDBOX_CHECK_WORD: 'staging-check-word-0123',
  FILE_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};

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

function expectHardened(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
  expect(headers['x-frame-options']).toBe('DENY');
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self'[ ;]/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).toContain("object-src 'none'");
}

describe('security headers on every answer', () => {
  it('on a signed call, a refused call, a malformed body and an unknown route', async () => {
    const ok = await t.call('/www/sys_config_get');
    expect(ok.body.ret).toBe(0);
    expectHardened(ok.raw.headers);

    const unsigned = await t.app.inject({ method: 'POST', url: '/www/sys_config_get', payload: {} });
    expect(unsigned.json().ret).toBe(1101);
    expectHardened(unsigned.headers);

    const malformed = await t.call('/www/sys_config_get', '{not json');
    expect(malformed.body.ret).not.toBe(0);
    expectHardened(malformed.raw.headers);

    const missing = await t.app.inject({ method: 'GET', url: '/www/no_such_call' });
    expectHardened(missing.headers);
  });

  it('on the API reference, its JSON and the address library', async () => {
    for (const url of ['/docs/api/', '/docs/openapi.json', addressLibraryFile().urlPath]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(400);
      expectHardened(response.headers);
    }
  });

  it('answers without inline content carry no nonce; HSTS only in production over HTTPS', async () => {
    const ok = await t.call('/www/sys_config_get');
    expect(ok.raw.headers['content-security-policy']).not.toContain('nonce-');
    expect(ok.raw.headers['strict-transport-security']).toBeUndefined();
    // Not production: even over HTTPS (behind a proxy) no HSTS, and no analytics origin.
    expect(
      (await t.app.inject({ method: 'GET', url: '/docs/openapi.json', headers: { 'x-forwarded-proto': 'https' } })).headers['strict-transport-security'],
    ).toBeUndefined();
  });

  it('in production: HSTS over HTTPS only, and the analytics origin allowed', async () => {
    const handle = testDb.open();
    const config = testConfig({ ...STAGING, TRUST_PROXY: 'true', ANALYTICS_SCRIPT_URL: 'https://analytics.example/script.js', API_DOCS: '1' });
    const { app } = await buildApp({ config: { ...config, database: testDb.config.database }, database: handle });
    try {
      const plain = await app.inject({ method: 'GET', url: '/docs/openapi.json' });
      expectHardened(plain.headers);
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      expect(plain.headers['content-security-policy']).toContain("script-src 'self' https://analytics.example");
      const secure = await app.inject({ method: 'GET', url: '/docs/openapi.json', headers: { 'x-forwarded-proto': 'https' } });
      expect(secure.headers['strict-transport-security']).toBe(HSTS);
      expect(secure.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await app.close();
      await handle.destroy();
    }
  });
});

describe('the API reference in production', () => {
  it('is not served unless API_DOCS=1', async () => {
    const handle = testDb.open();
    const config = testConfig(STAGING);
    const { app } = await buildApp({ config: { ...config, database: testDb.config.database }, database: handle });
    try {
      for (const url of ['/docs/api', '/docs/api/', '/docs/openapi.json']) expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    } finally {
      await app.close();
      await handle.destroy();
    }
    // Development keeps it (the suite's own app).
    expect((await t.app.inject({ method: 'GET', url: '/docs/openapi.json' })).statusCode).toBe(200);
  });
});

describe('the back office is never indexed', () => {
  it('knows its paths', () => {
    for (const url of ['/admin', '/admin/', '/admin/login', '/admin?x=1', '/admin-api/operator_me', '/admin-files/material/1'])
      expect(isBackOffice(url), url).toBe(true);
    for (const url of ['/', '/about', '/administrator', '/www/admin', '/visa/admin']) expect(isBackOffice(url), url).toBe(false);
  });
});
