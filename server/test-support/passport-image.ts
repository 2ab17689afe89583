// Test passport data pages, drawn from nothing but code: a TD3 machine-readable
// zone in OCR-B (outlines of Matthew Skala's public-domain OCR-B, committed in
// modules/passport-scan/ocr-b-glyphs.json, so no installed font is needed), a fake visual
// zone, then the damage of a phone photo: skew, blur, sensor noise, uneven
// light and JPEG compression. Deterministic for a seed. Used by the passport
// scan's tests, the e2e journey and `npm run bench:mrz`.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { checkDigit } from '../modules/passport-scan/mrz-read.ts';

interface Glyphs {
  unitsPerEm: number;
  advance: number;
  glyphs: Record<string, string>;
}
const GLYPHS: Glyphs = JSON.parse(readFileSync(new URL('../modules/passport-scan/ocr-b-glyphs.json', import.meta.url), 'utf8'));

export interface PassportPerson {
  surname: string;
  given_names: string;
  passport_no: string;
  nationality: string;
  issuing_state: string;
  /** YYYY-MM-DD */
  birth_date: string;
  sex: 'M' | 'F';
  expiry_date: string;
}

/** A small deterministic PRNG (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const yymmdd = (date: string) => date.slice(2, 4) + date.slice(5, 7) + date.slice(8, 10);
const field = (value: string, length: number) =>
  value
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '<')
    .slice(0, length)
    .padEnd(length, '<');

/** The two TD3 lines of a person; `corruptCheckDigit` writes a wrong digit in the document number's check. */
export function td3Lines(person: PassportPerson, options: { corruptCheckDigit?: boolean } = {}): [string, string] {
  const names = `${person.surname.toUpperCase().replace(/[^A-Z]+/g, '<')}<<${person.given_names.toUpperCase().replace(/[^A-Z]+/g, '<')}`;
  const line1 = `P<${field(person.issuing_state, 3)}${names.slice(0, 39).padEnd(39, '<')}`;
  const number = field(person.passport_no, 9);
  const personal = '<'.repeat(14);
  let numberCheck = checkDigit(number);
  if (options.corruptCheckDigit) numberCheck = String((Number(numberCheck) + 3) % 10);
  const birth = yymmdd(person.birth_date);
  const expiry = yymmdd(person.expiry_date);
  const composite = checkDigit(`${number}${numberCheck}${birth}${checkDigit(birth)}${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}`);
  const line2 = `${number}${numberCheck}${field(person.nationality, 3)}${birth}${checkDigit(birth)}${person.sex}${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}${composite}`;
  return [line1, line2];
}

/** OCR-B text as SVG paths: `size` is the em in pixels, (x, y) the baseline start. */
function ocrbText(text: string, x: number, y: number, size: number, fill = '#1a1a1a'): string {
  const scale = size / GLYPHS.unitsPerEm;
  const step = GLYPHS.advance * scale;
  return [...text.toUpperCase()]
    .map((char, i) => {
      const d = GLYPHS.glyphs[char];
      return d ? `<path transform="translate(${(x + i * step).toFixed(1)} ${y}) scale(${scale.toFixed(4)})" d="${d}" fill="${fill}"/>` : '';
    })
    .join('');
}

const SURNAMES = [
  'ZHANG',
  'WANG',
  'LI',
  'LIU',
  'CHEN',
  'YANG',
  'HUANG',
  'ZHAO',
  'ZHOU',
  'WU',
  'XU',
  'SUN',
  'MA',
  'ZHU',
  'HU',
  'GUO',
  'HE',
  'LIN',
  'LUO',
  'OUYANG',
  'SIMA',
];
const GIVEN = [
  'WEI',
  'FANG',
  'XIUYING',
  'NA',
  'MIN',
  'JING',
  'LEI',
  'QIANG',
  'JUN',
  'YANG',
  'JIE',
  'TAO',
  'MING',
  'CHAO',
  'XIULAN',
  'XIA',
  'PING',
  'GANG',
  'HAOYU',
  'ZIXUAN',
  'YUTONG',
];
const FOREIGN: Array<[string, string, string]> = [
  ['MUELLER', 'ANNA MARIA', 'D'],
  ['SMITH', 'JOHN PAUL', 'GBR'],
  ['TANAKA', 'HIROSHI', 'JPN'],
  ['DUPONT', 'CLAIRE', 'FRA'],
];

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

/** A made-up traveller: mostly Chinese passports (E + 8 digits, or EA + 7), a few foreign ones. */
export function randomPerson(seed: number): PassportPerson {
  const rand = random(seed * 7919 + 17);
  const foreign = rand() < 0.15;
  const letters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 10)).join('');
  const birthYear = 1950 + Math.floor(rand() * 70);
  const expiryYear = 2027 + Math.floor(rand() * 9);
  const base = {
    birth_date: isoDate(birthYear, 1 + Math.floor(rand() * 12), 1 + Math.floor(rand() * 28)),
    expiry_date: isoDate(expiryYear, 1 + Math.floor(rand() * 12), 1 + Math.floor(rand() * 28)),
    sex: (rand() < 0.5 ? 'M' : 'F') as 'M' | 'F',
  };
  if (foreign) {
    const [surname, given, state] = pick(rand, FOREIGN);
    return {
      ...base,
      surname,
      given_names: given,
      nationality: state,
      issuing_state: state,
      passport_no: `${pick(rand, letters.split(''))}${digits(2)}${pick(rand, letters.split(''))}${digits(4)}`,
    };
  }
  const given = rand() < 0.3 ? `${pick(rand, GIVEN)}${pick(rand, GIVEN).toLowerCase()}`.toUpperCase() : pick(rand, GIVEN);
  const passportNo = rand() < 0.6 ? `E${digits(8)}` : `E${pick(rand, letters.split(''))}${digits(7)}`;
  return { ...base, surname: pick(rand, SURNAMES), given_names: given, nationality: 'CHN', issuing_state: 'CHN', passport_no: passportNo };
}

export interface PassportImageOptions {
  seed: number;
  person?: PassportPerson;
  corruptCheckDigit?: boolean;
  /** Degrees; default a random −4…4. */
  skew?: number;
  /** 0 (clean) … 1 (heavy); default a random 0.3…1. */
  damage?: number;
  format?: 'jpeg' | 'png';
}

/** A passport data page as a phone photo would show it. */
export async function passportImage(options: PassportImageOptions): Promise<{ image: Buffer; person: PassportPerson; lines: [string, string] }> {
  const rand = random(options.seed);
  const person = options.person ?? randomPerson(options.seed);
  const lines = td3Lines(person, { corruptCheckDigit: options.corruptCheckDigit });
  const damage = options.damage ?? 0.3 + rand() * 0.7;
  const skew = options.skew ?? (rand() * 2 - 1) * 4;
  // The page: 125 × 88 mm at 10 px/mm; MRZ characters 2.54 mm apart (OCR-B size 1).
  const width = 1250;
  const height = 880;
  const em = 25.4 / (GLYPHS.advance / GLYPHS.unitsPerEm);
  const mrzX = 60;
  const paper = `hsl(${Math.floor(180 + rand() * 60)}, 30%, ${88 + Math.floor(rand() * 6)}%)`;
  const guilloche = Array.from({ length: 14 }, (_, i) => {
    const y = 60 + i * 42 + rand() * 10;
    return `<path d="M0 ${y} C ${300 + rand() * 100} ${y - 40}, ${700 + rand() * 100} ${y + 40}, ${width} ${y}" stroke="hsl(${200 + i * 5},40%,75%)" stroke-width="1.4" fill="none"/>`;
  }).join('');
  const label = (text: string, x: number, y: number) => ocrbText(text, x, y, 16, '#5a6b80');
  const value = (text: string, x: number, y: number) => ocrbText(text, x, y, 26, '#222');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${paper}"/>${guilloche}
    ${ocrbText('PASSPORT', 380, 70, 34, '#3b4f6b')}
    <rect x="60" y="120" width="280" height="360" rx="8" fill="#c9ced6"/>
    <ellipse cx="200" cy="270" rx="90" ry="115" fill="#9aa3ad"/>
    <rect x="90" y="380" width="220" height="100" rx="40" fill="#8a939d"/>
    ${label('TYPE', 380, 130)}${value('P', 380, 165)}${label('COUNTRY CODE', 520, 130)}${value(person.issuing_state, 520, 165)}${label('PASSPORT NO', 800, 130)}${value(person.passport_no, 800, 165)}
    ${label('SURNAME', 380, 215)}${value(person.surname, 380, 250)}
    ${label('GIVEN NAMES', 380, 295)}${value(person.given_names, 380, 330)}
    ${label('SEX', 380, 375)}${value(person.sex, 380, 410)}${label('DATE OF BIRTH', 520, 375)}${value(person.birth_date, 520, 410)}
    ${label('DATE OF EXPIRY', 380, 455)}${value(person.expiry_date, 380, 490)}
    <rect x="0" y="${height - 190}" width="${width}" height="190" fill="${paper}"/>
    ${ocrbText(lines[0], mrzX, height - 105, em)}${ocrbText(lines[1], mrzX, height - 45, em)}
  </svg>`;

  // Photo damage: the page lies on a darker table, tilted, a little out of focus, lit unevenly, noisy, compressed.
  const blur = 0.3 + damage * 0.9;
  let page = sharp(Buffer.from(svg))
    .rotate(skew, { background: { r: 70, g: 62, b: 55 } })
    .blur(blur);
  const { data, info } = await page.raw().toBuffer({ resolveWithObject: true });
  const noise = 6 + damage * 22;
  const light = 0.15 * damage;
  for (let y = 0; y < info.height; y += 1) {
    for (let x = 0; x < info.width; x += 1) {
      const shade = 1 - light * (x / info.width) - light * 0.5 * (y / info.height);
      const grain = (rand() + rand() + rand() - 1.5) * noise;
      for (let c = 0; c < info.channels; c += 1) {
        const i = (y * info.width + x) * info.channels + c;
        data[i] = Math.max(0, Math.min(255, data[i]! * shade + grain));
      }
    }
  }
  page = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  // The photo's own size: 1100–1700 px wide.
  const scaleTo = Math.round(1100 + rand() * 600);
  page = page.resize({ width: scaleTo });
  const image =
    options.format === 'png' ? await page.png().toBuffer() : await page.jpeg({ quality: Math.round(85 - damage * 40), chromaSubsampling: '4:2:0' }).toBuffer();
  return { image, person, lines };
}
