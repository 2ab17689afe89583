// The MRZ parsing (ICAO 9303 TD3) without any image: check digits, the OCR's
// usual confusions cleaned where the layout allows, a wrong check digit refused.
import { describe, expect, it } from 'vitest';
import { td3Lines } from '../../test-support/passport-image.ts';
import { checkDigit, checkedReadings, cleanNames, findTd3Lines, readMrzText, stateCode } from './mrz-read.ts';

const TODAY = '2026-11-28';
const PERSON = {
  surname: 'ZHANG',
  given_names: 'SAN',
  passport_no: 'E12345678',
  nationality: 'CHN',
  issuing_state: 'CHN',
  birth_date: '1985-03-07',
  sex: 'M' as const,
  expiry_date: '2030-01-31',
};

describe('MRZ check digits', () => {
  it('follow ICAO 9303 (weights 7 3 1, < = 0, A = 10): the specimen L898902C3 → 6, 740812 → 2, 120415 → 9', () => {
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('120415')).toBe('9');
    expect(checkDigit('<<<<<<<<<<<<<<')).toBe('0');
  });
});

describe('readMrzText', () => {
  it('reads the fields of a TD3 zone', () => {
    const [one, two] = td3Lines(PERSON);
    expect(readMrzText(`noise\n${one}\n${two}\n`, TODAY)).toMatchObject({
      ok: true,
      fields: {
        surname: 'ZHANG',
        given_names: 'SAN',
        passport_no: 'E12345678',
        nationality: 'CHN',
        issuing_state: 'CHN',
        birth_date: '1985-03-07',
        sex: 'M',
        expiry_date: '2030-01-31',
      },
    });
  });

  it('refuses a zone with a wrong check digit (document number, birth date, expiry or composite)', () => {
    const [one, two] = td3Lines(PERSON, { corruptCheckDigit: true });
    expect(readMrzText(`${one}\n${two}`, TODAY)).toMatchObject({ ok: false, reason: 'check_digit' });
    const good = td3Lines(PERSON)[1];
    for (const at of [19, 27, 43]) {
      const wrong = `${good.slice(0, at)}${(Number(good[at]) + 1) % 10}${good.slice(at + 1)}`;
      expect(readMrzText(`${one}\n${wrong}`, TODAY), `position ${at}`).toMatchObject({ ok: false, reason: 'check_digit' });
    }
  });

  it('says not_found when there is no zone', () => {
    expect(readMrzText('PASSPORT\nZHANG SAN\n', TODAY)).toEqual({ ok: false, reason: 'not_found' });
  });

  it('fixes letter/digit confusions only where the layout wants a digit, and fillers read as K, C or L', () => {
    const [one, two] = td3Lines(PERSON);
    const misread1 = one.replace('ZHANG<<SAN<<<<', 'ZHANG<KSAN<CKL');
    // Birth date 850307 read with an O and an S.
    const misread2 = two.replace('850307', '8SO3O7');
    const result = readMrzText(`${misread1}\n${misread2}`, TODAY);
    expect(result).toMatchObject({ ok: true, fields: { surname: 'ZHANG', given_names: 'SAN', birth_date: '1985-03-07' } });
  });

  it('takes the passport number its check digits accept when letters and digits look alike (O/0, S/5, B/8)', () => {
    const [one, two] = td3Lines(PERSON);
    const misread = `E1234S67B${two.slice(9)}`;
    expect(readMrzText(`${one}\n${misread}`, TODAY)).toMatchObject({ ok: true, fields: { passport_no: 'E12345678' } });
    expect(checkedReadings('E1234S67B', checkDigit('E12345678'))).toContain('E12345678');
  });

  it('puts birth dates in the past century when needed and keeps the year of an expiry', () => {
    const [one, two] = td3Lines({ ...PERSON, birth_date: '2030-01-01'.replace('2030', '1930'), expiry_date: '2035-12-31' });
    expect(readMrzText(`${one}\n${two}`, TODAY)).toMatchObject({ ok: true, fields: { birth_date: '1930-01-01', expiry_date: '2035-12-31' } });
  });
});

describe('cleaning helpers', () => {
  it('restores the names field: trailing fillers, the surname separator, a name ending in a filler-like letter', () => {
    expect(cleanNames('SMITH<<JOHN<PAUL<CCLCLLLL')).toBe('SMITH<<JOHN<PAUL<<<<<<<<<');
    expect(cleanNames('YANG<KQIANG<<LCLL')).toBe('YANG<<QIANG<<<<<<');
  });

  it('corrects a state code one lookalike letter away, preferring the other code of the zone', () => {
    expect(stateCode('QBR')).toBe('GBR');
    expect(stateCode('CHN')).toBe('CHN');
    expect(stateCode('D<<')).toBe('D<<');
  });

  it('finds the two lines among OCR text, padding a line the OCR cut short', () => {
    const [one, two] = td3Lines(PERSON);
    expect(findTd3Lines(`${one.slice(0, 40)}\n${two}`)).toEqual([one, two]);
  });
});
