import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('system config and address library', () => {
  it('points addr_download_url at a content-hashed, long-cached library', async () => {
    const config = await t.call('/www/sys_config_get');
    expect(config.body.ret).toBe(0);
    const url: string = config.body.body.addr_download_url;
    expect(url).toMatch(/^\/static\/address-library\.[0-9a-f]{12}\.json$/);

    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers['content-type']).toContain('application/json');
    const library = file.json() as Record<string, Record<string, string>>;
    expect(library['86']!['110000']).toBe('北京市');
    expect(library['86']!['440000']).toBe('广东省');
    expect(library['440000']!['440300']).toBe('深圳市');
    expect(library['440300']!['440305']).toBe('南山区');
    expect(Object.keys(library['86']!)).toHaveLength(34);
  });

  it('publishes an OpenAPI reference of every call with its error codes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/openapi.json' });
    const spec = response.json() as { paths: Record<string, { post: { description: string; requestBody: unknown } }> };
    for (const path of ['/www/account_login', '/www/account_logout', '/www/user/user_info_query', '/www/user/user_cs_query', '/www/sys_config_get']) {
      expect(spec.paths[path], path).toBeDefined();
      expect(spec.paths[path]!.post.description).toContain('| 1001 |');
      expect(spec.paths[path]!.post.requestBody).toBeDefined();
    }
    expect(spec.paths['/www/account_login']!.post.description).toContain('| 1302 |');
    expect(spec.paths['/www/user/user_info_query']!.post.description).toContain('| 1201 | 401 |');
    const ui = await t.app.inject({ method: 'GET', url: '/docs/api' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});
