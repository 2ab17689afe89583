// docs/api.md lists every error code exactly as common/error-codes.ts defines it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, ErrorCode } from './error-codes.ts';

describe('error codes', () => {
  it('are unique and each has a Chinese message', () => {
    const values = Object.values(ErrorCode);
    expect(new Set(values).size).toBe(values.length);
    for (const code of values) {
      expect(ERROR_CATALOGUE[code], String(code)).toBeDefined();
      if (code !== 0) expect(ERROR_CATALOGUE[code].msg).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('are all in the API conventions document', () => {
    const doc = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    for (const [ret, entry] of Object.entries(ERROR_CATALOGUE)) {
      if (ret === '0') continue;
      expect(doc, `docs/api.md lacks ${ret}`).toContain(`| ${ret} | ${entry.http} | ${entry.msg} | ${entry.meaning} |`);
    }
  });
});
