import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_API_CLIENTS, loadConfig } from './config.ts';

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
    expect(() => loadConfig({ APP_ENV: 'prod', API_CLIENTS: '4:prod-key:a-long-production-secret' })).toThrow(/PAYMENT_PROVIDER/);
    // The sandbox courier books no courier: the same rule.
    expect(() => loadConfig({ APP_ENV: 'prod', API_CLIENTS: '4:prod-key:a-long-production-secret', PAYMENT_SANDBOX_IN_PROD: 'true' })).toThrow(
      /COURIER_PROVIDER/,
    );
    expect(
      loadConfig({ APP_ENV: 'prod', API_CLIENTS: '4:prod-key:a-long-production-secret', PAYMENT_SANDBOX_IN_PROD: 'true', COURIER_SANDBOX_IN_PROD: 'true' })
        .APP_ENV,
    ).toBe('prod');
  });

  it('needs an API client for the web platform', () => {
    expect(() => loadConfig({ API_CLIENTS: '1:app-key:0123456789abcdef' })).toThrow(/WEB_PLATFORM=4/);
  });
});
