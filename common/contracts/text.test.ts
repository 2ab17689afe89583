// The text rule (issue 23): each class of refused character, what passes, line
// breaks only in multi-line fields, and the walk over a whole payload.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ADMIN_CONTRACTS, WWW_CONTRACTS } from './index.ts';
import type { Contract } from './define.ts';
import { findRefusedText, isAcceptableText, textProblem, withoutRefusedCharacters } from './text.ts';

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

describe('textProblem', () => {
  it('refuses every C0 control character, DEL and every C1 control character', () => {
    for (let code = 0x00; code <= 0x9f; code += 1) {
      if (code >= 0x20 && code < 0x7f) continue;
      const text = `张${String.fromCharCode(code)}三`;
      const expected = code === 0x09 || code === 0x0a || code === 0x0d ? 'line-break' : 'control';
      expect(textProblem(text), hex(code)).toBe(expected);
    }
  });

  it('accepts printable ASCII and the Latin-1 letters after the C1 block', () => {
    for (let code = 0x20; code < 0x7f; code += 1) expect(textProblem(String.fromCharCode(code)), hex(code)).toBeNull();
    for (let code = 0xa0; code <= 0xff; code += 1) expect(textProblem(String.fromCharCode(code)), hex(code)).toBeNull();
  });

  it("refuses exactly Unicode's Bidi_Control characters: embeddings, overrides, isolates and the three marks", () => {
    const bidi = /\p{Bidi_Control}/u;
    const refused: number[] = [];
    const wrong: string[] = [];
    for (let code = 0x0000; code <= 0xffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const problem = textProblem(String.fromCharCode(code));
      if (problem === 'bidi') refused.push(code);
      // Nothing outside the controls and Bidi_Control is refused in the BMP.
      const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
      if ((problem === 'bidi') !== bidi.test(String.fromCharCode(code)) || (problem !== null && problem !== 'bidi' && !control)) wrong.push(hex(code));
    }
    expect(wrong).toEqual([]);
    expect(refused.map(hex)).toEqual(['U+061C', 'U+200E', 'U+200F', 'U+202A', 'U+202B', 'U+202C', 'U+202D', 'U+202E', 'U+2066', 'U+2067', 'U+2068', 'U+2069']);
    expect(textProblem('invoice\u202Efdp.exe')).toBe('bidi');
  });

  it('refuses unpaired surrogates, wherever they are, and accepts surrogate pairs', () => {
    const parsed = JSON.parse('{"high":"\\ud800","low":"a\\udc00b","reversed":"\\udc00\\ud800","pair":"\\ud83d\\ude00"}') as Record<string, string>;
    expect(textProblem(parsed.high!)).toBe('surrogate');
    expect(textProblem(parsed.low!)).toBe('surrogate');
    expect(textProblem(parsed.reversed!)).toBe('surrogate');
    expect(textProblem(`末尾${'\ud83d'}`)).toBe('surrogate');
    expect(textProblem(parsed.pair!)).toBeNull();
    expect(textProblem('😀👨‍👩‍👧🇨🇳𠮷')).toBeNull();
  });

  it('accepts Chinese, the ideographic space, other scripts and zero-width joiners', () => {
    for (const text of [
      '张三',
      '上海市浦东新区世纪大道 100 号',
      '王\u3000五',
      'Zoë Ñúñez',
      'مرحبا',
      'שלום',
      'Ålesund',
      '',
      ' ',
      '\uFF08全角\uFF09',
      'a\u200Db',
    ]) {
      expect(textProblem(text), JSON.stringify(text)).toBeNull();
    }
  });

  it('accepts tab, line feed and carriage return only in a multi-line text', () => {
    for (const text of ['第一行\n第二行', '第一行\r\n第二行', '列\t列']) {
      expect(textProblem(text)).toBe('line-break');
      expect(isAcceptableText(text)).toBe(false);
      expect(textProblem(text, true)).toBeNull();
      expect(isAcceptableText(text, true)).toBe(true);
    }
    // The other controls stay refused in a multi-line text.
    for (const text of ['a\u0000b', 'a\u000Bb', 'a\u000Cb', 'a\u007Fb', 'a\u0085b', 'a\u202Eb', 'a\ud800b']) expect(textProblem(text, true)).not.toBeNull();
  });
});

describe('withoutRefusedCharacters', () => {
  it('drops what the rule refuses and keeps the rest', () => {
    expect(withoutRefusedCharacters('护照\u0000首页\u202Egpj.pdf')).toBe('护照首页gpj.pdf');
    expect(withoutRefusedCharacters(`a${'\ud800'}b😀\n`)).toBe('ab😀');
  });
});

describe('findRefusedText', () => {
  it('finds a refused string value at any depth and names its path', () => {
    expect(findRefusedText({ a: 1, applicants: [{ name: '张三' }, { name: '李\u202E四' }] })).toEqual({
      path: 'applicants[].name',
      problem: 'bidi',
      key: false,
    });
    expect(findRefusedText({ x: [[['\u0000']]] })).toEqual({ path: 'x[][][]', problem: 'control', key: false });
    expect(findRefusedText('\u0001')).toEqual({ path: '', problem: 'control', key: false });
    expect(findRefusedText({ ok: '张三', n: 1, b: true, nothing: null, list: [1, '二'] })).toBeNull();
  });

  it('checks object keys too, never as multi-line', () => {
    expect(findRefusedText({ 'a\u0000': 1 })).toMatchObject({ problem: 'control', key: true });
    expect(findRefusedText({ 'a\n': 1 }, ['a\n'])).toMatchObject({ problem: 'line-break', key: true });
    expect(findRefusedText(JSON.parse('{"__proto__":{"\\u202e":1}}'))).toMatchObject({ problem: 'bidi', key: true });
  });

  it('allows line breaks only at the declared paths', () => {
    const body = { reason: '一\n二', comments: [{ comment: '第一页\n第二行' }], note: '单\n行' };
    expect(findRefusedText(body, ['reason', 'comments[].comment'])).toEqual({ path: 'note', problem: 'line-break', key: false });
    expect(findRefusedText(body, ['reason', 'comments[].comment', 'note'])).toBeNull();
    // The same key elsewhere is not multi-line, nor is a key that looks like a path.
    expect(findRefusedText({ nested: { reason: '一\n二' } }, ['reason'])).toMatchObject({ path: 'nested.reason', problem: 'line-break' });
    expect(findRefusedText({ 'comments[].comment': '一\n二' }, ['comments[].comment'])).toMatchObject({ problem: 'line-break' });
  });

  it('walks a deeply nested value without exhausting the stack', () => {
    const depth = 200_000;
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`) as unknown;
    expect(findRefusedText(deep)).toMatchObject({ problem: 'control' });
  });
});

describe('multi-line declarations of the contracts', () => {
  /** The string fields of a payload, by the walk's paths, from its JSON schema. */
  function stringPaths(schema: unknown, path: string, out: Set<string>): void {
    if (!schema || typeof schema !== 'object') return;
    const node = schema as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[]; allOf?: unknown[]; properties?: Record<string, unknown>; items?: unknown };
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) stringPaths(branch, path, out);
    if (node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string'))) out.add(path);
    for (const [key, value] of Object.entries(node.properties ?? {})) stringPaths(value, path === '' ? key : `${path}.${key}`, out);
    if (node.items) stringPaths(node.items, `${path}[]`, out);
  }

  const contracts = Object.values({ ...WWW_CONTRACTS, ...ADMIN_CONTRACTS }) as Contract[];

  it('name string fields of their own payload', () => {
    const declared = contracts.filter((contract) => contract.multiline && contract.multiline.length > 0);
    expect(declared.length).toBeGreaterThanOrEqual(9);
    for (const contract of declared) {
      const paths = new Set<string>();
      stringPaths(z.toJSONSchema(contract.payload, { io: 'input', unrepresentable: 'any' }), '', paths);
      for (const path of contract.multiline!) expect(paths, `${contract.path}: ${path}`).toContain(path);
    }
  });

  it("cover the back office's and the customer's text areas", () => {
    const multiline = Object.fromEntries(contracts.filter((c) => c.multiline?.length).map((c) => [c.path, [...c.multiline!].sort()]));
    expect(multiline).toEqual({
      '/www/order/interview_change_request': ['reason'],
      '/www/order/page_check_correction': ['comments[].comment'],
      '/admin-api/order/file_review': ['memo'],
      '/admin-api/order/interview_notice_publish': ['attention', 'process', 'telephone'],
      '/admin-api/order/price_difference_request': ['reason'],
      '/admin-api/order/mail_missing': ['note'],
      '/admin-api/result/reject': ['note'],
      '/admin-api/order/refund_create': ['reason'],
      '/admin-api/order/return_record': ['note'],
      '/admin-api/order/close_refund': ['reason'],
      '/admin-api/reconciliation/difference_explain': ['note'],
      '/admin-api/invoice/reject': ['reason'],
      '/admin-api/catalogue/draft_save': [
        'content.basic_info[].content',
        'content.checklists[].materials[].attention',
        'content.handle_process[].content',
        'content.reminder',
      ],
      '/admin-api/catalogue/country_save': ['country.description'],
    });
  });
});
