// One rule for every text the API takes (issue 23): a string is refused when
// it holds a character that no field of this platform needs and that either
// breaks a database or deceives a reader.
//
//   - C0 controls U+0000–U+001F: NUL makes PostgreSQL refuse the whole
//     statement (SQLite stores it); the others are invisible. Tab, line feed
//     and carriage return are allowed only in the fields a contract declares
//     multi-line (`multiline` in defineContract: the forms' text areas).
//   - DEL U+007F and the C1 controls U+0080–U+009F: no keyboard types them;
//     they come from mis-decoded bytes and are invisible too.
//   - The bidirectional controls (Unicode's Bidi_Control property, the
//     characters of "Trojan Source", CVE-2021-42574): the embeddings and
//     overrides U+202A–U+202E, the isolates U+2066–U+2069, and also the
//     invisible marks U+200E (LRM), U+200F (RLM) and U+061C (ALM). The texts
//     here are Chinese and Latin names, addresses and notes, where none of
//     them has a use; an override shows an applicant's name or a file name
//     in an order other than the stored one, and a mark makes two names that
//     look the same differ (duplicate checks, exact searches).
//   - An unpaired UTF-16 surrogate (JSON "\ud800" parses to one): it has no
//     UTF-8 form, so the drivers store U+FFFD in its place — the text would
//     silently change.
//
// Everything else passes: Chinese, emoji (surrogate pairs), Arabic or Hebrew
// letters, the ideographic space, zero-width joiners (emoji sequences need
// them). Plain code, no zod: the server applies it to every payload before the
// contract's schema (server/platform/payload.ts), and a form may use it too.

/** Why a string is refused. */
export type TextProblem = 'control' | 'line-break' | 'bidi' | 'surrogate';

/** The answer's msg (ret 1001) when a payload holds a refused character. */
export const TEXT_REFUSED_MSG = '参数错误：含有不允许的字符（如控制字符或文字方向控制符）';

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** The Bidi_Control characters (Unicode 15: U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069). */
function isBidiControl(code: number): boolean {
  return code === 0x061c || code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/**
 * What is wrong with a text, or null when it is acceptable. `multiline`
 * allows tab, line feed and carriage return (a text area's field).
 */
export function textProblem(value: string, multiline = false): TextProblem | null {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20) {
      const lineBreak = code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN;
      if (lineBreak && multiline) continue;
      return lineBreak ? 'line-break' : 'control';
    }
    if (code < 0x7f) continue;
    if (code <= 0x9f) return 'control';
    if (code >= 0xd800 && code <= 0xdbff) {
      // A high surrogate must be followed by a low one (charCodeAt past the end is NaN).
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i += 1;
        continue;
      }
      return 'surrogate';
    }
    if (code >= 0xdc00 && code <= 0xdfff) return 'surrogate';
    if (isBidiControl(code)) return 'bidi';
  }
  return null;
}

/** Whether a text passes the rule (see textProblem). */
export function isAcceptableText(value: string, multiline = false): boolean {
  return textProblem(value, multiline) === null;
}

/** The characters of a text that pass the rule (single-line): for labels that are cleaned rather than refused, such as a file's name. */
export function withoutRefusedCharacters(value: string): string {
  let kept = '';
  for (const char of value) if (textProblem(char) === null) kept += char;
  return kept;
}

/** Where a payload holds a refused text: the field's path (as in `multiline`) and why. */
export interface RefusedText {
  path: string;
  problem: TextProblem;
  /** The refused text is an object's key, not a value. */
  key: boolean;
}

/**
 * The first refused string of a parsed JSON value (every string value and every
 * object key, at any depth), or null. A path is the object keys from the root
 * joined by '.', with '[]' for an array's items: `applicants[].name`,
 * `comments[].comment`. Strings at a path listed in `multiline` may hold line
 * breaks and tabs; keys never. Iterative: a deeply nested body cannot exhaust
 * the stack.
 */
export function findRefusedText(value: unknown, multiline: readonly string[] = []): RefusedText | null {
  const lines = new Set(multiline);
  // A path is null under a key that could be mistaken for path syntax: such a field is never multi-line.
  const stack: Array<{ value: unknown; path: string | null }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current, path !== null && lines.has(path));
      if (problem) return { path: path ?? '?', problem, key: false };
    } else if (Array.isArray(current)) {
      const itemPath = path === null ? null : `${path}[]`;
      for (const item of current) stack.push({ value: item, path: itemPath });
    } else if (current !== null && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        const keyPath = path === null || /[.[\]]/.test(key) ? null : path === '' ? key : `${path}.${key}`;
        const problem = textProblem(key);
        if (problem) return { path: keyPath ?? '?', problem, key: true };
        stack.push({ value: (current as Record<string, unknown>)[key], path: keyPath });
      }
    }
  }
  return null;
}
