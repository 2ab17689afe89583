import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsEncoding, encodedBody, negotiateEncoding } from './encoding.ts';
import { type CachedPage, createPageCache } from './page-cache.ts';
import { fillGzip, fillIdentity, templateOf } from './page-template.ts';

function page(text: string): CachedPage {
  return { status: 200, headers: [['content-type', 'text/html']], template: templateOf(Buffer.from(text), 'nonce-never-present') };
}

describe('guest page cache', () => {
  it('serves an entry only while its version is current', async () => {
    let version = 'v1';
    const cache = createPageCache([{ pattern: /^\/visa\/product\/(\d+)$/, version: async () => version }], { maxEntries: 10, maxBytes: 1 << 20 });
    expect(await cache.versionOf('/about')).toBeNull();
    const v1 = (await cache.versionOf('/visa/product/7'))!;
    cache.set('/visa/product/7', v1, page('old'));
    expect(fillIdentity(cache.get('/visa/product/7', v1)!.template, 'x').toString()).toBe('old');

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
    expect(acceptsEncoding('br, gzip;q=0', 'gzip')).toBe(false);
    expect(acceptsEncoding('br, *', 'gzip')).toBe(true);
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

describe('page template (a cached page gets a fresh nonce per response)', () => {
  const first = 'Ab3_-x9QzK1mN0pL2oR4sT';
  const html = (nonce: string) =>
    `<!DOCTYPE html><html><head><style nonce="${nonce}">${'.a{color:red}'.repeat(800)}</style></head><body>${'<p>签证办理</p>'.repeat(3000)}<script nonce="${nonce}">window.x=1</script><script type="module" nonce="${nonce}">import "/a.js"</script></body></html>`;

  it('puts the new nonce everywhere the old one stood, and nowhere else', () => {
    const template = templateOf(Buffer.from(html(first)), first);
    expect(template.parts).toHaveLength(4);
    const second = 'Zz9_-Yy8XxWw7Vv6Uu5TtS';
    expect(fillIdentity(template, second).toString()).toBe(html(second));
    expect(fillIdentity(template, second).includes(first)).toBe(false);
  });

  it('splices a valid gzip stream around the nonce, with the right CRC and length', () => {
    const template = templateOf(Buffer.from(html(first)), first);
    for (const nonce of ['Qq1_-Ww2Ee3Rr4Tt5Yy6Uu', 'Mm7_-Nn8Bb9Vv0Cc1Xx2Zz']) {
      const body = fillGzip(template, nonce);
      // gunzipSync checks the CRC-32 and the length in the trailer.
      expect(gunzipSync(body).toString()).toBe(html(nonce));
      // Compressed parts are reused: only the CRC is computed per response.
      expect(body.length).toBeLessThan(html(nonce).length / 5);
    }
  });

  it('handles a page without a nonce and a nonce at the very start or end', () => {
    const none = templateOf(Buffer.from('<p>纯文本</p>'), first);
    expect(gunzipSync(fillGzip(none, 'n')).toString()).toBe('<p>纯文本</p>');
    const edges = templateOf(Buffer.from(`${first}middle${first}`), first);
    expect(gunzipSync(fillGzip(edges, 'N1')).toString()).toBe('N1middleN1');
  });
});
