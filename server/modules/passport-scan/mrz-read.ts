// The machine-readable zone of a passport (ICAO 9303 TD3: two lines of 44
// characters) → the fields the order form needs. The `mrz` package parses
// the lines and verifies every check digit; here the OCR's lines are found
// and cleaned first, and a read whose check digits do not all agree is
// refused (a misread or a forged/mistyped zone), never half-used.
import countries from 'i18n-iso-countries';
import { parse } from 'mrz';

export const MRZ_LINE_LENGTH = 44;
const MRZ_CHARS = /^[A-Z0-9<]+$/;

/** The ICAO 9303 check digit of a field (weights 7, 3, 1; '<' = 0, A = 10 … Z = 35). */
export function checkDigit(field: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i += 1) {
    const c = field[i]!;
    const value = c === '<' ? 0 : c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55;
    sum += value * weights[i % 3]!;
  }
  return String(sum % 10);
}

export interface PassportFields {
  /** Surname as printed in the MRZ (Latin letters; pinyin for a Chinese passport), spaces for fillers. */
  surname: string;
  given_names: string;
  passport_no: string;
  /** ISO 3166-1 alpha-3 as in the MRZ (CHN, D<< → D). */
  nationality: string;
  issuing_state: string;
  /** YYYY-MM-DD. */
  birth_date: string;
  sex: 'M' | 'F' | null;
  expiry_date: string;
}

export type MrzReadResult =
  { ok: true; fields: PassportFields; lines: [string, string] } | { ok: false; reason: 'not_found' | 'check_digit'; lines?: [string, string] };

/** OCR confusions fixed only where the ICAO layout says a digit must stand. */
const TO_DIGIT: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', B: '8', G: '6', T: '7' };
/** …and where a letter must stand. */
const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G' };

function cleanLine(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/[«‹([{]/g, '<')
    .replace(/\s+/g, '')
    .replace(/[^A-Z0-9<]/g, '');
}

function fixPositions(line: string, digits: Array<[number, number]>, letters: Array<[number, number]>): string {
  const chars = [...line];
  for (const [from, to] of digits) for (let i = from; i < to && i < chars.length; i += 1) chars[i] = TO_DIGIT[chars[i]!] ?? chars[i]!;
  for (const [from, to] of letters) for (let i = from; i < to && i < chars.length; i += 1) chars[i] = TO_LETTER[chars[i]!] ?? chars[i]!;
  return chars.join('');
}

/** Characters the OCR reads a filler '<' as (OCR-B's chevron against an English model). */
const FILLERISH = new Set(['<', 'K', 'C', 'L']);

/**
 * The names field (line 1 from position 5) with its fillers restored: the trailing run of
 * filler-like characters becomes '<' (a name's own last letters before the first real '<'
 * stay: PAUL<CCL… → PAUL<<<…), and a lone separator read as <K / K< / KK becomes '<<'.
 */
export function cleanNames(field: string): string {
  let end = field.length;
  while (end > 0 && FILLERISH.has(field[end - 1]!)) end -= 1;
  const run = field.slice(end);
  const firstFiller = run.indexOf('<');
  const keep = firstFiller > 0 ? run.slice(0, firstFiller) : '';
  let names = field.slice(0, end) + keep;
  if (!names.includes('<<')) names = names.replace(/<[KC]|[KC]<|KK|CC/, '<<');
  return names.slice(0, field.length).padEnd(field.length, '<');
}

/** Shapes OCR-B keeps close (letter ↔ digit). */
const LOOKALIKE: Record<string, string> = {
  O: '0',
  '0': 'O',
  D: '0',
  S: '5',
  '5': 'S',
  B: '8',
  '8': 'B',
  I: '1',
  '1': 'I',
  Z: '2',
  '2': 'Z',
  G: '6',
  '6': 'G',
};

/**
 * A field's readings that its check digit accepts, fewest changes first (the reading itself when
 * it passes, and the other readings that pass too: O and 0 can weigh alike): letters and digits of
 * close shape (O/0, S/5, B/8, I/1, Z/2, G/6) may stand for each other in the alphanumeric
 * document and personal numbers. At most 3 changes.
 */
export function checkedReadings(field: string, check: string): string[] {
  const ambiguous = [...field].flatMap((c, i) => (LOOKALIKE[c] ? [i] : []));
  const found: string[] = [];
  const limit = Math.min(ambiguous.length, 3);
  const combos = (start: number, left: number, chars: string[]): void => {
    if (left === 0) {
      const candidate = chars.join('');
      if (checkDigit(candidate) === check) found.push(candidate);
      return;
    }
    for (let k = start; k < ambiguous.length; k += 1) {
      const i = ambiguous[k]!;
      const original = chars[i]!;
      chars[i] = LOOKALIKE[original]!;
      combos(k + 1, left - 1, chars);
      chars[i] = original;
    }
  };
  for (let changes = 0; changes <= limit; changes += 1) combos(0, changes, [...field]);
  return found;
}

/** Line 2 read again with a filler-only personal number (the check digits decide whether that was right). */
export function fillerVariants(line: string): string[] {
  const personal = line.slice(28, 42);
  const variants = [line];
  if ([...personal].filter((c) => FILLERISH.has(c)).length >= 10) variants.push(`${line.slice(0, 28)}${'<'.repeat(14)}${line.slice(42)}`);
  // The personal number's check digit may be '<' or 0 when the field is empty.
  for (const v of [...variants]) if (v[42] !== '<' && v[42] !== '0' && FILLERISH.has(v[42]!)) variants.push(`${v.slice(0, 42)}<${v.slice(43)}`);
  // The document number as its check digit reads it; the composite check digit decides between
  // readings (readTd3), more digits first.
  const digits = (text: string) => text.replace(/\D/g, '').length;
  for (const v of [...variants]) {
    const readings = checkedReadings(v.slice(0, 9), v[9]!).sort((a, b) => digits(b) - digits(a));
    for (const reading of readings.slice(0, 8)) if (reading !== v.slice(0, 9)) variants.push(`${reading}${v.slice(9)}`);
  }
  return variants;
}

/**
 * The TD3 pair among OCR'd text lines: the first line starts with P and holds the names,
 * the second is the one that follows it. Lines a character or two short or long are
 * padded/trimmed at their filler end (the OCR often drops or doubles a trailing '<').
 */
export function findTd3Lines(text: string): [string, string] | null {
  const lines = text
    .split(/\r?\n/)
    .map(cleanLine)
    .filter((line) => line.length >= 30);
  for (let i = 0; i + 1 < lines.length; i += 1) {
    const first = lines[i]!;
    const second = lines[i + 1]!;
    if (!first.startsWith('P') || !first.includes('<<')) continue;
    const fit = (line: string) => (line.length >= MRZ_LINE_LENGTH ? line.slice(0, MRZ_LINE_LENGTH) : line.padEnd(MRZ_LINE_LENGTH, '<'));
    const fixed = fixPositions(fit(first), [], [[0, 5]]);
    const one = `P${FILLERISH.has(fixed[1]!) ? '<' : fixed[1]}${fixed.slice(2, 5)}${cleanNames(fixed.slice(5))}`;
    // Line 2: number (0–9, may hold letters), check digit 9, nationality 10–13, birth date 13–19 + 19, sex 20, expiry 21–27, composite 43.
    const two = fixPositions(
      fit(second),
      [
        [9, 10],
        [13, 20],
        [21, 28],
        [42, 44],
      ],
      [[10, 13]],
    );
    if (MRZ_CHARS.test(one) && MRZ_CHARS.test(two)) return [one, two];
  }
  return null;
}

/** 'YYMMDD' → 'YYYY-MM-DD': birth dates in the future are last century's; expiry dates are this century's. */
function mrzDate(value: string, kind: 'birth' | 'expiry', today: string): string | null {
  if (!/^\d{6}$/.test(value)) return null;
  const yy = Number(value.slice(0, 2));
  const month = value.slice(2, 4);
  const day = value.slice(4, 6);
  const thisYear = Number(today.slice(0, 4));
  let year = 2000 + yy;
  if (kind === 'birth' && `${year}-${month}-${day}` > today) year -= 100;
  if (kind === 'expiry' && year > thisYear + 50) year -= 100;
  const date = `${year}-${month}-${day}`;
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date ? null : date;
}

/** ISO 3166-1 alpha-3 and the codes ICAO 9303 adds (Germany's D, British nationals, UN, stateless). */
const STATES = new Set([
  ...Object.keys(countries.getAlpha3Codes()),
  'D<<',
  'GBD',
  'GBN',
  'GBO',
  'GBP',
  'GBS',
  'UNO',
  'UNA',
  'UNK',
  'XXA',
  'XXB',
  'XXC',
  'XXX',
  'EUE',
  'RKS',
]);
const LETTER_LOOKALIKE: Record<string, string> = {
  Q: 'GO',
  G: 'QC',
  O: 'DQ',
  D: 'O',
  C: 'G',
  P: 'BR',
  B: 'PR',
  R: 'BP',
  E: 'F',
  F: 'E',
  M: 'N',
  N: 'M',
  U: 'V',
  V: 'U',
};

/** A state code as read, or the one valid code a single lookalike letter away (QBR → GBR). */
export function stateCode(code: string, hint?: string): string {
  if (STATES.has(code)) return code;
  const near: string[] = [];
  for (let i = 0; i < code.length; i += 1) {
    for (const other of LETTER_LOOKALIKE[code[i]!] ?? '') {
      const candidate = code.slice(0, i) + other + code.slice(i + 1);
      if (STATES.has(candidate)) near.push(candidate);
    }
  }
  if (hint && near.includes(hint)) return hint;
  return near.length === 1 ? near[0]! : code;
}

const words = (value: string | null | undefined) => (value ?? '').replace(/</g, ' ').replace(/\s+/g, ' ').trim();

/** The TD3 lines → the fields, or why not (every check digit must agree). */
export function readTd3(lines: [string, string], today: string): MrzReadResult {
  let result: ReturnType<typeof parse>;
  try {
    result = parse([...lines]);
  } catch {
    return { ok: false, reason: 'not_found', lines };
  }
  if (result.format !== 'TD3') return { ok: false, reason: 'not_found', lines };
  const checks = result.details.filter((detail) => detail.field?.endsWith('CheckDigit'));
  if (checks.length < 4 || checks.some((detail) => !detail.valid)) return { ok: false, reason: 'check_digit', lines };
  const f = result.fields;
  const birth = mrzDate(lines[1].slice(13, 19), 'birth', today);
  const expiry = mrzDate(lines[1].slice(21, 27), 'expiry', today);
  const passportNo = lines[1].slice(0, 9).replace(/</g, '');
  if (!birth || !expiry || passportNo === '' || !f.lastName) return { ok: false, reason: 'not_found', lines };
  const sex = lines[1][20];
  return {
    ok: true,
    lines,
    fields: {
      surname: words(f.lastName),
      given_names: words(f.firstName),
      passport_no: passportNo,
      nationality: words(stateCode(lines[1].slice(10, 13), stateCode(lines[0].slice(2, 5)))),
      issuing_state: words(stateCode(lines[0].slice(2, 5), stateCode(lines[1].slice(10, 13)))),
      birth_date: birth,
      sex: sex === 'M' || sex === 'F' ? sex : null,
      expiry_date: expiry,
    },
  };
}

/** OCR text → the fields: the TD3 pair found, cleaned and verified. */
export function readMrzText(text: string, today: string): MrzReadResult {
  const lines = findTd3Lines(text);
  if (!lines) return { ok: false, reason: 'not_found' };
  let first: MrzReadResult | null = null;
  let best: Extract<MrzReadResult, { ok: true }> | null = null;
  let bestScore = -Infinity;
  const asRead = lines[1].slice(0, 9).replace(/</g, '');
  for (const second of fillerVariants(lines[1])) {
    const result = readTd3([lines[0], second], today);
    if (!result.ok) {
      first ??= result;
      continue;
    }
    // Readings that all check digits accept may still differ (G and 6, or two O and 0, weigh alike):
    // a Chinese passport number is one or two letters then digits; otherwise the fewest changes win.
    const number = result.fields.passport_no;
    const changes = [...number].filter((c, i) => c !== asRead[i]).length;
    const score = (result.fields.issuing_state === 'CHN' && /^[A-Z]{1,2}\d{7,8}$/.test(number) ? 10 : 0) - changes;
    if (score > bestScore) [best, bestScore] = [result, score];
    first ??= result;
  }
  if (best) return best;
  return first!;
}
