import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_FILE_KEY } from './modules/stored-file/file-keys.ts';
import { ConfigError, DEV_API_CLIENTS, DEV_COURIER_SANDBOX_CHECK_WORD, DEV_PAYMENT_SANDBOX_SECRET, loadConfig } from './config.ts';

/** A production configuration that starts: its own signing pair, both sandboxes allowed (a staging site) with their own secrets. */
const staging = {
  APP_ENV: 'prod',
  API_CLIENTS: '4:prod-key:a-long-production-secret',
  PAYMENT_SANDBOX_IN_PROD: 'true',
  PAYMENT_SANDBOX_SECRET: 'a-staging-notify-secret-0123',
  COURIER_SANDBOX_IN_PROD: 'true',
  COURIER_SANDBOX_CHECK_WORD: 'a-staging-check-word-0123',
  FILE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

describe('configuration', () => {
  it('starts with development defaults on SQLite', () => {
    const config = loadConfig({});
    expect(config.database).toEqual({ kind: 'sqlite', file: 'data/visa.db' });
    expect(config.PORT).toBe(3000);
    expect(config.webClient.platform).toBe('4');
    expect(config.API_CLIENTS.size).toBe(DEV_API_CLIENTS.split(',').length);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1:5432/test' }).database.kind).toBe('postgres');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ APP_ENV: 'production' }, 'APP_ENV'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ API_CLIENTS: '4:key:short' }, 'API_CLIENTS'],
    [{ CS_EMAIL: 'not-an-email' }, 'CS_EMAIL'],
    [{ COURIER_SANDBOX_DUPLICATE_RATE: '1.5' }, 'COURIER_SANDBOX_DUPLICATE_RATE'],
    [{ COURIER_SANDBOX_CHECK_WORD: 'short' }, 'COURIER_SANDBOX_CHECK_WORD'],
    [{ COURIER_SANDBOX_PARTNER_ID: 'has space' }, 'COURIER_SANDBOX_PARTNER_ID'],
    [{ COURIER_QUERY_AFTER_MS: '5' }, 'COURIER_QUERY_AFTER_MS'],
  ])('names the bad variable in %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('refuses to run production on the public development signing pair', () => {
    expect(() => loadConfig({ APP_ENV: 'prod' })).toThrow(/API_CLIENTS/);
    // The sandbox payment provider takes no money: production refuses it unless a staging site says so.
    expect(() => loadConfig({ APP_ENV: 'prod', API_CLIENTS: '4:prod-key:a-long-production-secret' })).toThrow(
      /PAYMENT_WECHAT_PROVIDER, PAYMENT_ALIPAY_PROVIDER/,
    );
    // The sandbox courier books no courier: the same rule.
    expect(() => loadConfig({ APP_ENV: 'prod', API_CLIENTS: '4:prod-key:a-long-production-secret', PAYMENT_SANDBOX_IN_PROD: 'true' })).toThrow(
      /COURIER_PROVIDER/,
    );
    expect(loadConfig(staging).APP_ENV).toBe('prod');
    // The development pair, set explicitly (copied from .env.example), alone or beside a real one: refused, naming the variable.
    for (const clients of [DEV_API_CLIENTS, `1:app-key:an-app-production-secret,${DEV_API_CLIENTS}`, '4:visa-web-dev:another-secret-0123456789']) {
      expect(() => loadConfig({ ...staging, API_CLIENTS: clients })).toThrow(/API_CLIENTS: platform 4 uses the development pair/);
    }
    // A sandbox enabled in prod with its published secret: refused, naming the variable.
    expect(() => loadConfig({ ...staging, PAYMENT_SANDBOX_SECRET: undefined })).toThrow(/PAYMENT_SANDBOX_SECRET/);
    expect(() => loadConfig({ ...staging, PAYMENT_SANDBOX_SECRET: DEV_PAYMENT_SANDBOX_SECRET })).toThrow(/PAYMENT_SANDBOX_SECRET/);
    expect(() => loadConfig({ ...staging, COURIER_SANDBOX_CHECK_WORD: undefined })).toThrow(/COURIER_SANDBOX_CHECK_WORD/);
    expect(() => loadConfig({ ...staging, COURIER_SANDBOX_CHECK_WORD: DEV_COURIER_SANDBOX_CHECK_WORD })).toThrow(/COURIER_SANDBOX_CHECK_WORD/);
    // The .env.example file carries the same published values the check knows.
    const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
    expect(example).toContain(`API_CLIENTS=${DEV_API_CLIENTS}`);
    expect(example).toContain(`PAYMENT_SANDBOX_SECRET=${DEV_PAYMENT_SANDBOX_SECRET}`);
    expect(example).toContain(`COURIER_SANDBOX_CHECK_WORD=${DEV_COURIER_SANDBOX_CHECK_WORD}`);
  });

  it('serves the API reference everywhere but in prod, where API_DOCS=1 turns it on', () => {
    expect(loadConfig({}).apiDocs).toBe(true);
    expect(loadConfig({ APP_ENV: 'demo' }).apiDocs).toBe(true);
    expect(loadConfig(staging).apiDocs).toBe(false);
    expect(loadConfig({ ...staging, API_DOCS: '1' }).apiDocs).toBe(true);
    expect(loadConfig({ API_DOCS: '0' }).apiDocs).toBe(false);
  });

  it('listens on the loopback in dev and test, on every interface in demo and prod, unless HOST says', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ APP_ENV: 'test' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ APP_ENV: 'demo' }).HOST).toBe('0.0.0.0');
    const prod = staging;
    expect(loadConfig(prod).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...prod, HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5');
  });

  it('points PUBLIC_SITE_URL at its own PORT when unset (sandbox callbacks reach this instance)', () => {
    expect(loadConfig({}).PUBLIC_SITE_URL).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '3101' }).PUBLIC_SITE_URL).toBe('http://localhost:3101');
    expect(loadConfig({ PORT: '3101', PUBLIC_SITE_URL: 'https://visa.example' }).PUBLIC_SITE_URL).toBe('https://visa.example');
  });

  it('drains for 5 s on SIGTERM unless SHUTDOWN_DRAIN_MS says (0 allowed)', () => {
    expect(loadConfig({}).SHUTDOWN_DRAIN_MS).toBe(5000);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '0' }).SHUTDOWN_DRAIN_MS).toBe(0);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(/SHUTDOWN_DRAIN_MS/);
  });

  it("names what PAYMENT_ALIPAY_PROVIDER=alipay lacks: the app id, the private key, Alipay's public key or all three certificates", () => {
    const key = 'MIIB'.padEnd(120, 'A');
    expect(() => loadConfig({ PAYMENT_ALIPAY_PROVIDER: 'alipay' })).toThrow(
      /PAYMENT_ALIPAY_PROVIDER=alipay needs ALIPAY_APP_ID, ALIPAY_APP_PRIVATE_KEY \(or ALIPAY_APP_PRIVATE_KEY_FILE\), ALIPAY_PUBLIC_KEY/,
    );
    expect(() =>
      loadConfig({ PAYMENT_ALIPAY_PROVIDER: 'alipay', ALIPAY_APP_ID: '2021000149612345', ALIPAY_APP_PRIVATE_KEY: key, ALIPAY_APP_CERT_FILE: '/etc/a.crt' }),
    ).toThrow(/certificate mode needs all three/);
    expect(() => loadConfig({ PAYMENT_ALIPAY_PROVIDER: 'alipay', ALIPAY_APP_ID: 'app-1', ALIPAY_APP_PRIVATE_KEY: key, ALIPAY_PUBLIC_KEY: key })).toThrow(
      /ALIPAY_APP_ID/,
    );
    const config = loadConfig({
      PAYMENT_ALIPAY_PROVIDER: 'alipay',
      ALIPAY_APP_ID: '2021000149612345',
      ALIPAY_APP_PRIVATE_KEY_FILE: '/etc/visa/k.pem',
      ALIPAY_PUBLIC_KEY: key,
    });
    expect(config).toMatchObject({ ALIPAY_GATEWAY: 'https://openapi.alipay.com/gateway.do', ALIPAY_TIMEOUT_MS: 10_000 });
  });

  it('needs an API client for the web platform', () => {
    expect(() => loadConfig({ API_CLIENTS: '1:app-key:0123456789abcdef' })).toThrow(/WEB_PLATFORM=4/);
  });
});

describe('the master key of stored files (decision 0043)', () => {
  const key = Buffer.alloc(32, 3).toString('base64');

  it('is the published development key when unset outside prod', () => {
    expect(loadConfig({}).fileKeyring.development).toBe(true);
    const configured = loadConfig({ FILE_ENCRYPTION_KEY: key });
    expect(configured.fileKeyring.development).toBe(false);
    expect(configured.fileKeyring.current.key.equals(Buffer.alloc(32, 3))).toBe(true);
  });

  it('refuses to start in prod without a key, with one line naming it', () => {
    const { FILE_ENCRYPTION_KEY: _key, ...withoutKey } = staging;
    expect(() => loadConfig(withoutKey)).toThrow(ConfigError);
    try {
      loadConfig(withoutKey);
    } catch (error) {
      const lines = (error as Error).message.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^ {2}FILE_ENCRYPTION_KEY \(or FILE_ENCRYPTION_KEY_FILE\): must be set in production/);
    }
  });

  it.each([['not base64 at all!'], [Buffer.alloc(16, 1).toString('base64')], [Buffer.alloc(33, 1).toString('base64')]])(
    'refuses a malformed key (%s) without showing it',
    (bad) => {
      for (const env of [{ FILE_ENCRYPTION_KEY: bad }, { ...staging, FILE_ENCRYPTION_KEY: bad }, { FILE_ENCRYPTION_KEY_OLD: bad }]) {
        expect(() => loadConfig(env)).toThrow(/FILE_ENCRYPTION_KEY(_OLD)?: must be 32 random bytes in base64/);
        expect(() => loadConfig(env)).not.toThrow(bad);
      }
    },
  );

  it('reads the key from FILE_ENCRYPTION_KEY_FILE, and refuses both at once', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'visa-key-')), 'file.key');
    writeFileSync(file, `${key}\n`);
    expect(loadConfig({ FILE_ENCRYPTION_KEY_FILE: file }).fileKeyring.current.key.equals(Buffer.alloc(32, 3))).toBe(true);
    expect(() => loadConfig({ FILE_ENCRYPTION_KEY_FILE: file, FILE_ENCRYPTION_KEY: key })).toThrow(/not both/);
  });

  it('refuses the development key in prod, and takes an old key for a rotation', () => {
    expect(() => loadConfig({ ...staging, FILE_ENCRYPTION_KEY: DEVELOPMENT_FILE_KEY.toString('base64') })).toThrow(/development key/);
    const rotating = loadConfig({ ...staging, FILE_ENCRYPTION_KEY_OLD: key }).fileKeyring;
    expect(rotating.old?.key.equals(Buffer.alloc(32, 3))).toBe(true);
    expect(rotating.old?.id.equals(rotating.current.id)).toBe(false);
  });
});
