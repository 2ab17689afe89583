// Every /www call is signed (spec §7); these are the ways a call can fail the check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '../../common/constants.ts';
import { newRequestId, signRequest } from '../../common/signing.ts';
import { createTestApp, createTestDatabase, signedHeaders, type TestApp, type TestDatabase } from '../test-support/test-app.ts';

const PATH = '/www/sys_config_get';
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

async function send(headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'POST', url: PATH, headers, payload: '{}' });
  return { status: response.statusCode, ...(response.json() as { ret: number; msg: string; body: unknown }) };
}

describe(`signature check (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('accepts a correctly signed call', async () => {
    const result = await send(signedHeaders(t.clock));
    expect(result).toMatchObject({ status: 200, ret: 0, msg: 'ok' });
  });

  it('refuses an unsigned call', async () => {
    const result = await send({ 'content-type': 'application/json' });
    expect(result).toMatchObject({ status: 200, ret: 1101, msg: '请求签名缺失', body: null });
  });

  it('refuses a missing Authorization header', async () => {
    expect((await send(signedHeaders(t.clock, { headers: { authorization: undefined } }))).ret).toBe(1101);
  });

  it('refuses a wrong signature, a malformed one and one made with another secret', async () => {
    expect((await send(signedHeaders(t.clock, { headers: { authorization: 'Basic AAAA' } }))).ret).toBe(1102);
    expect((await send(signedHeaders(t.clock, { headers: { authorization: 'Bearer x' } }))).ret).toBe(1102);
    const date = new Date(t.clock.now).toUTCString();
    const requestId = newRequestId();
    const forged = signRequest({ accessKey: 'visa-web-test', date, version: API_VERSION, requestId }, 'not-the-secret-0123');
    const result = await send(signedHeaders(t.clock, { date, requestId, headers: { authorization: `Basic ${forged}` } }));
    expect(result).toMatchObject({ ret: 1102, msg: '请求签名错误' });
  });

  it('refuses a signature over other headers than those sent', async () => {
    const headers = signedHeaders(t.clock);
    headers['x-request-id'] = newRequestId();
    expect((await send(headers)).ret).toBe(1102);
  });

  it('refuses an unknown platform', async () => {
    expect(await send(signedHeaders(t.clock, { headers: { platform: '9' } }))).toMatchObject({ ret: 1103, msg: '未知的客户端平台' });
  });

  it('refuses another version', async () => {
    expect((await send(signedHeaders(t.clock, { headers: { 'x-version': '2.0.0' } }))).ret).toBe(1107);
  });

  it('refuses a request id that is not 32 [a-z0-9]', async () => {
    for (const requestId of ['short', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', `${'a'.repeat(31)}-`]) {
      expect((await send(signedHeaders(t.clock, { requestId }))).ret).toBe(1106);
    }
  });

  it('refuses an X-Date more than 15 minutes away, either side, and an unreadable one', async () => {
    const stale = new Date(t.clock.now - 16 * 60_000).toUTCString();
    const future = new Date(t.clock.now + 16 * 60_000).toUTCString();
    expect(await send(signedHeaders(t.clock, { date: stale }))).toMatchObject({ ret: 1104, msg: '请求时间无效，请校准设备时间' });
    expect((await send(signedHeaders(t.clock, { date: future }))).ret).toBe(1104);
    expect((await send(signedHeaders(t.clock, { date: 'yesterday' }))).ret).toBe(1104);
    // 14 minutes is still inside the window.
    expect((await send(signedHeaders(t.clock, { date: new Date(t.clock.now - 14 * 60_000).toUTCString() }))).ret).toBe(0);
  });

  it('refuses a replayed request id', async () => {
    const headers = signedHeaders(t.clock);
    expect((await send(headers)).ret).toBe(0);
    expect(await send(headers)).toMatchObject({ ret: 1105, msg: '重复的请求' });
  });

  it('refuses a replay on another app instance sharing the database', async () => {
    const other = await createTestApp(testDb);
    try {
      other.clock.now = t.clock.now;
      const headers = signedHeaders(t.clock);
      expect((await send(headers)).ret).toBe(0);
      const replay = await other.app.inject({ method: 'POST', url: PATH, headers, payload: '{}' });
      expect(replay.json()).toMatchObject({ ret: 1105 });
    } finally {
      await other.close(false);
    }
  });

  it('lets exactly one of many simultaneous copies of a request through', async () => {
    const headers = signedHeaders(t.clock);
    const results = await Promise.all(Array.from({ length: 10 }, () => send(headers)));
    expect(results.filter((r) => r.ret === 0)).toHaveLength(1);
    expect(results.filter((r) => r.ret === 1105)).toHaveLength(9);
  });

  it('checks the signature before the session', async () => {
    const result = await t.app.inject({ method: 'POST', url: '/www/user/user_info_query', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(result.statusCode).toBe(200);
    expect(result.json().ret).toBe(1101);
  });
});
