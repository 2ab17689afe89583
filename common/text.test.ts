import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN } from './contracts/rules.ts';
import { maskMobilePhone, normalizeInputText } from './text.ts';

describe('trimmed text input rule', () => {
  it('turns every unicode space variant into a space, then trims', () => {
    const variants = [
      '\u2000',
      '\u2001',
      '\u2002',
      '\u2003',
      '\u2004',
      '\u2005',
      '\u2006',
      '\u2007',
      '\u2008',
      '\u2009',
      '\u200A',
      '\u202F',
      '\u205F',
      '\u3000',
    ];
    for (const space of variants) {
      expect(normalizeInputText(`${space}张${space}三${space}`)).toBe('张 三');
    }
  });

  it('trims ordinary whitespace and leaves inner text alone', () => {
    expect(normalizeInputText('  demo_admin \t\n')).toBe('demo_admin');
    expect(normalizeInputText('')).toBe('');
  });
});

describe('e-mail pattern of spec §5', () => {
  it.each(['a@b.cn', 'wang.min_01-x@mail.example.com', 'A1@x.co', 'x@y.info', 'x@163.com'])('accepts %s', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(true);
  });
  it.each(['', 'plain', 'a@b', 'a@b.c', 'a@b.museum', 'a b@c.cn', '中文@qq.com', 'a@.cn', 'a@b.cn.'])('refuses %s', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(false);
  });
});

describe('mobile masking', () => {
  it('hides the middle four digits', () => {
    expect(maskMobilePhone('13800138000')).toBe('138****8000');
  });
});
