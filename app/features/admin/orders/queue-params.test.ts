// The queue's URL (/admin/orders?q=…): a search text the API's text rule
// refuses (common/contracts/text.ts) is dropped like any other value that does
// not fit, so a crafted link shows the unfiltered queue instead of an error.
import { describe, expect, it } from 'vitest';
import { queueHref, queuePayload, queueQueryOf } from './queue-params';

describe('queueQueryOf', () => {
  it('keeps a search text the rule accepts', () => {
    expect(queueQueryOf(new URLSearchParams('q=%E5%BC%A0%E4%B8%89&page=2'))).toEqual({ assignee: 'all', q: '张三', page: 2 });
    expect(queueHref(queueQueryOf(new URLSearchParams('q=%E5%BC%A0%E4%B8%89')))).toBe('/admin/orders?q=%E5%BC%A0%E4%B8%89');
    // Cut at 30 UTF-16 units without leaving half of an emoji.
    expect(queueQueryOf(new URLSearchParams({ q: `${'张'.repeat(29)}😀` })).q).toBe('张'.repeat(29));
  });

  it('drops a search text with a NUL, another control character or a direction control', () => {
    // (A URL cannot carry a lone surrogate: its UTF-8 decoding gives U+FFFD.)
    for (const q of ['%E5%BC%A0%00', '%E5%BC%A0%09%E4%B8%89', '%E5%BC%A0%E2%80%AE', '%C2%85%E5%BC%A0', '%E2%81%A6%E5%BC%A0']) {
      expect(queueQueryOf(new URLSearchParams(`q=${q}&page=2`)), q).toEqual({ assignee: 'all', page: 2 });
    }
  });
});

describe('saved views in the URL', () => {
  it('applies the saved view only to a URL without parameters', () => {
    expect(queueQueryOf(new URLSearchParams(''), 'mine')).toEqual({ assignee: 'me', view: 'mine', page: 1 });
    expect(queueQueryOf(new URLSearchParams('step=page_check'), 'mine')).toEqual({ assignee: 'all', step: 'page_check', page: 1 });
    expect(queueQueryOf(new URLSearchParams('view=due_soon'), 'mine')).toEqual({ assignee: 'all', view: 'due_soon', page: 1 });
  });

  it('keeps the view and an assignee other than the view’s own through a round trip', () => {
    const query = queueQueryOf(new URLSearchParams('view=mine&assignee=all&sort=due_desc&page=3'));
    expect(query).toEqual({ assignee: 'all', view: 'mine', sort: 'due_desc', page: 3 });
    expect(queueHref(query)).toBe('/admin/orders?view=mine&assignee=all&sort=due_desc&page=3');
    expect(queueHref({ assignee: 'me', view: 'mine', page: 1 })).toBe('/admin/orders?view=mine');
    expect(queuePayload({ assignee: 'all', view: 'due_soon', page: 1 })).toEqual({ assignee: 'all', due_soon: true, page: 1 });
  });
});
