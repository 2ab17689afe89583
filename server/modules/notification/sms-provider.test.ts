// The Alibaba Cloud SMS client against a local fake that checks the request
// signature as the service documents it (its own encoder), the sandbox's
// files, and the quiet hours' arithmetic (China time, no database).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAliyunSmsFake } from '../../test-support/fakes/aliyun-sms-fake.ts';
import { testConfig } from '../../test-support/test-app.ts';
import {
  chinaDateOf,
  inQuietHours,
  quietHoursEnd,
  renderTravellerText,
  smsVariable,
  templateVariables,
  TRAVELLER_TEMPLATES,
} from '../order-notices/traveller-messages.ts';
import { createAliyunSms, createSandboxSms, percentEncode, rpcSignature, SmsSendError } from './sms-provider.ts';

const ACCOUNT = {
  accessKeyId: 'LTAI5tFakeKeyId01',
  accessKeySecret: 'fake-secret-with spaces*and~tilde',
  signName: '易签通',
  templates: Object.fromEntries(
    Object.keys(TRAVELLER_TEMPLATES).map((key, i) => [`SMS_10000${i}`, templateVariables(key as keyof typeof TRAVELLER_TEMPLATES)]),
  ),
};
const CODES = Object.fromEntries(Object.keys(TRAVELLER_TEMPLATES).map((key, i) => [key, `SMS_10000${i}`]));

let fake: Awaited<ReturnType<typeof startAliyunSmsFake>>;
beforeAll(async () => {
  fake = await startAliyunSmsFake(ACCOUNT);
});
afterAll(async () => {
  await fake?.close();
});

const client = (overrides: Partial<Parameters<typeof createAliyunSms>[0]> = {}) =>
  createAliyunSms({ ...ACCOUNT, templates: CODES, endpoint: fake.endpoint, timeoutMs: 5_000, ...overrides });

const params = { name: '张三', order_no: 'YQ20261201001', visa_no: 'V12345678', valid_to: '2027-06-30' };

describe('percent-encoding and the signature (Alibaba Cloud RPC, version 1.0)', () => {
  it('encodes as Alibaba documents: space %20, * %2A, ~ kept, UTF-8 upper-case hex', () => {
    expect(percentEncode("a b*c~d!'()")).toBe('a%20b%2Ac~d%21%27%28%29');
    expect(percentEncode('易')).toBe('%E6%98%93');
    expect(percentEncode('/')).toBe('%2F');
  });

  it("matches the documentation's worked example", () => {
    // The example of Alibaba Cloud's signature documentation (ECS DescribeRegions, secret "testsecret").
    const example = {
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      Format: 'XML',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      SignatureVersion: '1.0',
      Timestamp: '2016-02-23T12:46:24Z',
      Version: '2014-05-26',
    };
    expect(rpcSignature(example, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });
});

describe('Alibaba Cloud SMS client against the local fake', () => {
  it('sends a template with its variables; the fake verifies the signature and records the message', async () => {
    const sent = await client().send({ to: '13800138000', template: 'result_issued', params, text: renderTravellerText('result_issued', params) });
    expect(sent.id).toMatch(/\^/);
    expect(fake.received.at(-1)).toEqual({ phone: '13800138000', templateCode: CODES.result_issued, params, bizId: sent.id });
  });

  it('a wrong secret is refused as the service does (SignatureDoesNotMatch), permanently', async () => {
    const error = await client({ accessKeySecret: 'another-secret' })
      .send({ to: '13800138000', template: 'result_issued', params, text: '' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsSendError);
    expect(error).toMatchObject({ code: 'SignatureDoesNotMatch', permanent: true });
  });

  it("Code != OK is an error with the provider's code: a bad number is permanent, throttling is not", async () => {
    const bad = await client()
      .send({ to: '12345', template: 'result_issued', params, text: '' })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'isv.MOBILE_NUMBER_ILLEGAL', permanent: true });
    fake.fail('isv.BUSINESS_LIMIT_CONTROL');
    const throttled = await client()
      .send({ to: '13800138000', template: 'result_issued', params, text: '' })
      .catch((e: unknown) => e);
    expect(throttled).toMatchObject({ code: 'isv.BUSINESS_LIMIT_CONTROL', permanent: false });
    const missing = await client()
      .send({ to: '13800138000', template: 'result_issued', params: { name: '张三' }, text: '' })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'isv.TEMPLATE_MISSING_PARAMETERS', permanent: true });
  });

  it('a template without a configured code is refused before any call; an unreachable endpoint is retryable', async () => {
    const before = fake.received.length;
    await expect(client({ templates: {} }).send({ to: '13800138000', template: 'ship_back', params, text: '' })).rejects.toMatchObject({
      code: 'LOCAL.TEMPLATE_NOT_CONFIGURED',
      permanent: true,
    });
    await expect(client({ endpoint: 'http://127.0.0.1:9/' }).send({ to: '13800138000', template: 'ship_back', params, text: '' })).rejects.toMatchObject({
      code: 'LOCAL.NETWORK',
      permanent: false,
    });
    expect(fake.received.length).toBe(before);
  });
});

describe('the sandbox and the templates', () => {
  it('writes each message as a JSON file with its template, variables and words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sms-sandbox-'));
    const { id } = await createSandboxSms(dir).send({ to: '13800138000', template: 'page_check', params: { name: '李四', order_no: 'YQ1' }, text: 'x' });
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, files[0]!), 'utf8'))).toMatchObject({ id, to: '13800138000', template: 'page_check', params: { name: '李四' } });
  });

  it('variables are one line, without template syntax, at most 35 characters', () => {
    expect(smsVariable('a\nb ${x}')).toBe('a b x');
    expect(smsVariable('长'.repeat(50))).toHaveLength(35);
  });
});

describe('quiet hours (22:00–08:00 China time)', () => {
  const at = (iso: string) => Date.parse(iso);
  it('knows the hours in China time and when they end', () => {
    expect(inQuietHours(at('2026-12-01T13:59:00Z'))).toBe(false); // 21:59
    expect(inQuietHours(at('2026-12-01T14:00:00Z'))).toBe(true); // 22:00
    expect(inQuietHours(at('2026-12-01T23:59:00Z'))).toBe(true); // 07:59 next day
    expect(inQuietHours(at('2026-12-02T00:00:00Z'))).toBe(false); // 08:00
    expect(new Date(quietHoursEnd(at('2026-12-01T15:00:00Z'))).toISOString()).toBe('2026-12-02T00:00:00.000Z'); // 23:00 → 08:00
    expect(new Date(quietHoursEnd(at('2026-12-01T18:00:00Z'))).toISOString()).toBe('2026-12-02T00:00:00.000Z'); // 02:00 → 08:00
    expect(chinaDateOf(at('2026-12-01T17:00:00Z'))).toBe('2026-12-02');
  });
});

describe('configuration', () => {
  it('the sandbox is the default; SMS_PROVIDER=aliyun names what it lacks, a template code included', () => {
    expect(testConfig().SMS_PROVIDER).toBe('sandbox');
    expect(() =>
      testConfig({
        SMS_PROVIDER: 'aliyun',
        ALIYUN_SMS_ACCESS_KEY_ID: ACCOUNT.accessKeyId,
        ALIYUN_SMS_ACCESS_KEY_SECRET: ACCOUNT.accessKeySecret,
        ALIYUN_SMS_SIGN_NAME: '易签通',
        ALIYUN_SMS_TEMPLATES: 'appointment=SMS_1,page_check=SMS_3',
      }),
    ).toThrow(/SMS_PROVIDER=aliyun needs ALIYUN_SMS_TEMPLATES appointment_change=<模板CODE>/);
    const full = testConfig({
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: ACCOUNT.accessKeyId,
      ALIYUN_SMS_ACCESS_KEY_SECRET: ACCOUNT.accessKeySecret,
      ALIYUN_SMS_SIGN_NAME: '易签通',
      ALIYUN_SMS_TEMPLATES: Object.entries(CODES)
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
    });
    expect(full.SMS_PROVIDER).toBe('aliyun');
  });
});
