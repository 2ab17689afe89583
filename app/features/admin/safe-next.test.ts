// /admin/login?next=…: where a logged-in operator is sent. The value becomes a
// Location header, which carries only visible ASCII (a browser's own next is
// percent-encoded): anything else — a NUL, a line break, a Chinese character
// left unencoded in a crafted link — made the loader's redirect throw (HTTP 500);
// now it falls back to the back office's home.
import { describe, expect, it } from 'vitest';
import { ADMIN_HOME, safeNext } from './admin-api';

describe('safeNext', () => {
  it('keeps an /admin path with its query, percent-encoded', () => {
    expect(safeNext('/admin/orders?q=%E5%BC%A0%E4%B8%89&page=2')).toBe('/admin/orders?q=%E5%BC%A0%E4%B8%89&page=2');
    expect(safeNext('/admin')).toBe('/admin');
  });

  it('falls back to the home for another site, or for what a Location header cannot carry', () => {
    for (const next of [
      null,
      '',
      '//evil.example/admin',
      'https://evil.example/admin',
      '/administrator',
      '/admin\u0000x',
      '/admin/\r\nSet-Cookie: a=b',
      '/admin/张三',
      '/admin/\u202Ex',
      '/admin/ x',
    ]) {
      expect(safeNext(next), JSON.stringify(next)).toBe(ADMIN_HOME);
    }
  });

  it('answers only values a redirect can send', () => {
    for (const next of ['/admin/orders?q=%E5%BC%A0', '/admin\u0000x', '/admin/张三', '/admin/\nx']) {
      expect(() => new Response(null, { status: 302, headers: { Location: safeNext(next) } })).not.toThrow();
    }
  });
});
