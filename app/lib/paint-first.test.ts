import { describe, expect, it } from 'vitest';
import { paintFirst } from './paint-first';

const page = (nonce: string) =>
  `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/a.js"/><link rel="modulepreload" href="/assets/b.js"/>` +
  `<link nonce="${nonce}" rel="stylesheet" href="/assets/a.css"/></head><body><h1>签证</h1>` +
  `<script nonce="${nonce}">window.__ctx = 1</script>` +
  `<script nonce="${nonce}" type="module" async="">import * as route0 from "/assets/root.js"; import("/assets/entry.client.js");</script>` +
  `<script nonce="${nonce}">window.__data = 2</script></body></html>`;

describe('paintFirst', () => {
  const html = paintFirst(page('N0nce'));

  it('takes the module preloads out and leaves the stylesheets and the content', () => {
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<link nonce="N0nce" rel="stylesheet" href="/assets/a.css"/>');
    expect(html).toContain('<h1>签证</h1>');
  });

  it('keeps the module code as inert text, then a classic script with the same nonce that runs it later', () => {
    expect(html).not.toContain('type="module"');
    expect(html).toContain(
      '<script nonce="N0nce" type="text/x-paint-first" id="paint-first-app">import * as route0 from "/assets/root.js"; import("/assets/entry.client.js");</script><script nonce="N0nce">(function () {',
    );
    // The other inline scripts (React Router's context and data) stay where they were.
    expect(html).toContain('<script nonce="N0nce">window.__ctx = 1</script>');
    expect(html).toContain('<script nonce="N0nce">window.__data = 2</script></body>');
  });

  it('adds one nonce position only (a cached page splices the nonce in at each)', () => {
    const count = (s: string) => s.split('N0nce').length - 1;
    expect(count(html)).toBe(count(page('N0nce')) + 1);
  });

  it('leaves a page of another shape as it was', () => {
    const other = '<html><body><script type="module" src="/a.js"></script></body></html>';
    expect(paintFirst(other)).toBe(other);
  });
});
