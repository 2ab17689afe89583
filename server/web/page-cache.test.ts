import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodedBody, negotiateEncoding } from './encoding.ts';
import { type CachedPage, createPageCache } from './page-cache.ts';

function page(text: string): CachedPage {
  return { status: 200, headers: [['content-type', 'text/html']], bodies: { identity: Buffer.from(text) } };
}

describe('guest page cache', () => {
  it('serves an entry only while its version is current', async () => {
    let version = 'v1';
    const cache = createPageCache([{ pattern: /^\/visa\/product\/(\d+)$/, version: async () => version }], { maxEntries: 10, maxBytes: 1 << 20 });
    expect(await cache.versionOf('/about')).toBeNull();
    const v1 = (await cache.versionOf('/visa/product/7'))!;
    cache.set('/visa/product/7', v1, page('old'));
    expect(cache.get('/visa/product/7', v1)?.bodies.identity.toString()).toBe('old');

    version = 'v2'; // the product was edited
    const v2 = (await cache.versionOf('/visa/product/7'))!;
    expect(cache.get('/visa/product/7', v2)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('does not cache a page whose version is unknown', async () => {
    const cache = createPageCache([{ pattern: /^\/visa\/product\/(\d+)$/, version: async () => null }], { maxEntries: 10, maxBytes: 1 << 20 });
    expect(await cache.versionOf('/visa/product/999')).toBeNull();
  });

  it('evicts the least recently used entries beyond its bounds', () => {
    const cache = createPageCache([], { maxEntries: 2, maxBytes: 1 << 20 });
    cache.set('a', '1', page('a'));
    cache.set('b', '1', page('b'));
    cache.get('a', '1');
    cache.set('c', '1', page('c'));
    expect(cache.get('b', '1')).toBeNull();
    expect(cache.get('a', '1')).not.toBeNull();
    expect(cache.get('c', '1')).not.toBeNull();

    const small = createPageCache([], { maxEntries: 100, maxBytes: 4000 });
    small.set('big', '1', page('x'.repeat(600)));
    small.set('big2', '1', page('y'.repeat(600)));
    small.set('big3', '1', page('z'.repeat(600)));
    expect(small.size).toBeLessThan(3);
  });
});

describe('page compression', () => {
  it('prefers br, then gzip, and honours q=0', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('identity')).toBe('identity');
    expect(negotiateEncoding(undefined)).toBe('identity');
  });

  it('compresses once and keeps the copy', () => {
    const bodies = { identity: Buffer.from('<p>签证</p>'.repeat(500)) };
    const br = encodedBody(bodies, 'br');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).equals(bodies.identity)).toBe(true);
    expect(encodedBody(bodies, 'br').body).toBe(br.body);
    const gz = encodedBody(bodies, 'gzip');
    expect(gunzipSync(gz.body).equals(bodies.identity)).toBe(true);
    expect(encodedBody({ identity: Buffer.from('tiny') }, 'br').encoding).toBe('identity');
  });
});
