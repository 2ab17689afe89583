// A reader made for the MRZ alone: its two lines are 44 characters of OCR-B
// at a fixed pitch (ICAO 9303, ISO 1073-2), so each line is cut into 44 cells
// and each cell is matched against the 37 OCR-B shapes (A–Z, 0–9, <), drawn
// from the font's outlines. A general OCR model reads the '<' runs badly
// (as K, C, L, or inserts characters); this one cannot lose or add a
// character. tesseract.js stays the fallback (ocr.ts).
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

interface Glyphs {
  unitsPerEm: number;
  advance: number;
  glyphs: Record<string, string>;
}
const GLYPHS: Glyphs = JSON.parse(readFileSync(new URL('./ocr-b-glyphs.json', import.meta.url), 'utf8'));
const CHARS = Object.keys(GLYPHS.glyphs);
/**
 * A line's ink spans from its tallest character's top to the baseline's overshoot: digits stand
 * taller than capitals in OCR-B, and line 1 (document code, state, names) has letters only while
 * line 2 always holds digits (its dates).
 */
const CELL_TOP = { letters: -721, digits: -773 };
const CELL_BOTTOM = 14;
/** Feature grid of a cell. */
const GX = 10;
const GY = 14;
const LINE_CHARS = 44;
const SHIFTS = [-1, 0, 1].flatMap((dx) => [-1, 0, 1].map((dy) => [dx, dy] as const));

type Feature = Float32Array;

/** Ink fraction per grid square of a binary image region (1 = ink). */
function feature(dark: Uint8Array, width: number, x0: number, y0: number, w: number, h: number): Feature {
  const out = new Float32Array(GX * GY);
  for (let gy = 0; gy < GY; gy += 1) {
    const ya = y0 + (gy * h) / GY;
    const yb = y0 + ((gy + 1) * h) / GY;
    for (let gx = 0; gx < GX; gx += 1) {
      const xa = x0 + (gx * w) / GX;
      const xb = x0 + ((gx + 1) * w) / GX;
      let ink = 0;
      let all = 0;
      for (let y = Math.floor(ya); y < Math.ceil(yb); y += 1) {
        for (let x = Math.floor(xa); x < Math.ceil(xb); x += 1) {
          all += 1;
          ink += dark[y * width + x] ?? 0;
        }
      }
      out[gy * GX + gx] = all ? ink / all : 0;
    }
  }
  return out;
}

type Table = Array<{ char: string; feature: Feature }>;
const templates: Partial<Record<keyof typeof CELL_TOP, Promise<Table>>> = {};

/** Each character drawn in its cell at 8 px per 100 units, as the same feature. */
function loadTemplates(height: keyof typeof CELL_TOP): Promise<Table> {
  const cellTop = CELL_TOP[height];
  templates[height] ??= Promise.all(
    CHARS.map(async (char) => {
      const scale = 0.08;
      const w = Math.round(GLYPHS.advance * scale);
      const h = Math.round((CELL_BOTTOM - cellTop) * scale);
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#fff"/><path transform="translate(0 ${-cellTop * scale}) scale(${scale})" d="${GLYPHS.glyphs[char]}" fill="#000"/></svg>`;
      const { data, info } = await sharp(Buffer.from(svg)).toColourspace('b-w').extractChannel(0).raw().toBuffer({ resolveWithObject: true });
      const dark = new Uint8Array(info.width * info.height);
      for (let i = 0; i < dark.length; i += 1) dark[i] = data[i]! < 128 ? 1 : 0;
      return { char, feature: feature(dark, info.width, 0, 0, info.width, info.height) };
    }),
  );
  return templates[height];
}

/** The squared difference of a cell and a template moved by (dx, dy) grid squares. */
function distance(a: Feature, b: Feature, dx: number, dy: number): number {
  let sum = 0;
  for (let gy = 0; gy < GY; gy += 1) {
    for (let gx = 0; gx < GX; gx += 1) {
      const sx = gx + dx;
      const sy = gy + dy;
      const vb = sx >= 0 && sx < GX && sy >= 0 && sy < GY ? b[sy * GX + sx]! : 0;
      sum += (a[gy * GX + gx]! - vb) ** 2;
    }
  }
  return sum;
}

export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

const DIGITS = '0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ<';
const ANY = DIGITS + LETTERS;
/** What ICAO 9303 allows at each position of a TD3 line 2 (check digits and dates are digits, nationality letters, sex M/F/<). */
function lineTwoChars(k: number): string {
  if (k === 9 || (k >= 13 && k <= 19) || (k >= 21 && k <= 27) || k === 43) return DIGITS;
  if (k === 42) return `${DIGITS}<`;
  if (k >= 10 && k <= 12) return LETTERS;
  if (k === 20) return 'MF<';
  return ANY;
}

/** The band's ink without specks (connected groups of under 40 pixels: sensor noise, dust), as a copy. */
function despeckle(dark: Uint8Array, width: number, box: Box): Uint8Array {
  const out = new Uint8Array(dark.length);
  const seen = new Uint8Array(dark.length);
  const stack: number[] = [];
  const members: number[] = [];
  for (let y = box.top; y < box.bottom; y += 1) {
    for (let x = box.left; x < box.right; x += 1) {
      const start = y * width + x;
      if (!dark[start] || seen[start]) continue;
      members.length = 0;
      stack.push(start);
      seen[start] = 1;
      while (stack.length > 0) {
        const i = stack.pop()!;
        members.push(i);
        const px = i % width;
        const py = (i - px) / width;
        for (const [nx, ny] of [
          [px - 1, py],
          [px + 1, py],
          [px, py - 1],
          [px, py + 1],
        ] as const) {
          if (nx < box.left || nx >= box.right || ny < box.top || ny >= box.bottom) continue;
          const j = ny * width + nx;
          if (dark[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
      if (members.length >= 40) for (const i of members) out[i] = 1;
    }
  }
  return out;
}

/** The columns of a line's characters (rows top..bottom): the inkiest group of inked columns. */
function textColumns(dark: Uint8Array, width: number, box: Box, top: number, bottom: number, lineHeight: number): { first: number; last: number } | null {
  const columns = new Float64Array(box.right - box.left);
  for (let y = top; y < bottom; y += 1) for (let x = box.left; x < box.right; x += 1) columns[x - box.left]! += dark[y * width + x]!;
  // The line's characters: the widest group of inked columns with gaps under a line height
  // (an MRZ has no blank cell), which leaves out a page edge or a stain beside it.
  const gapLimit = lineHeight * 1.2;
  let first = -1;
  let last = -1;
  let groupStart = -1;
  let groupEnd = -1;
  let groupInk = 0;
  let bestInk = 0;
  // A column counts when it holds more than a speck of ink.
  const minInk = Math.max(2, (bottom - top) * 0.1);
  for (let x = 0; x <= columns.length; x += 1) {
    const ink = x < columns.length ? columns[x]! : 0;
    if (ink >= minInk) {
      if (groupStart >= 0 && x - groupEnd > gapLimit) {
        if (groupInk > bestInk) [bestInk, first, last] = [groupInk, groupStart, groupEnd];
        groupStart = -1;
      }
      if (groupStart < 0) {
        groupStart = x;
        groupInk = 0;
      }
      groupEnd = x;
      groupInk += ink;
    }
  }
  if (groupStart >= 0 && groupInk > bestInk) [first, last] = [groupStart, groupEnd];
  if (first < 0) return null;
  return { first: box.left + first, last: box.left + last };
}

/** One line's 44 characters, from its rows (top..bottom) of a binary image. */
function readLine(dark: Uint8Array, width: number, box: Box, top: number, bottom: number, table: Table, allowed: (k: number) => string): string {
  const columns = new Float64Array(box.right - box.left);
  for (let y = top; y < bottom; y += 1) for (let x = box.left; x < box.right; x += 1) columns[x - box.left]! += dark[y * width + x]!;
  const first = 0;
  const last = columns.length - 1;
  const span = last - first + 1;
  // Pitch and phase: the cell borders should fall where there is least ink.
  let best = { pitch: span / LINE_CHARS, start: first, score: Infinity };
  for (let pitch = span / 44.6; pitch <= span / 42.6; pitch += 0.05) {
    for (let phase = -pitch * 0.45; phase <= pitch * 0.1; phase += 0.5) {
      let score = 0;
      for (let k = 0; k <= LINE_CHARS; k += 1) {
        const x = Math.round(first + phase + k * pitch);
        score += x >= 0 && x < columns.length ? columns[x]! : 0;
      }
      if (score < best.score) best = { pitch, start: first + phase, score };
    }
  }
  let line = '';
  const height = bottom - top;
  for (let k = 0; k < LINE_CHARS; k += 1) {
    const x0 = box.left + best.start + k * best.pitch;
    const cell = feature(dark, width, Math.max(0, x0), top, best.pitch, height);
    let char = '<';
    let score = Infinity;
    const may = allowed(k);
    for (const t of table) {
      if (!may.includes(t.char)) continue;
      for (const [dx, dy] of SHIFTS) {
        const d = distance(cell, t.feature, dx, dy);
        if (d < score) {
          score = d;
          char = t.char;
        }
      }
    }
    line += char;
  }
  return line;
}

/**
 * The two MRZ lines read from a binary image (1 = ink): `lines` are the rows where each line's
 * ink edges are densest (their middle); each is widened to its characters' full height here.
 */
export async function readOcrbLines(
  image: Uint8Array,
  width: number,
  box: Box,
  lines: Array<{ top: number; bottom: number }>,
): Promise<[string, string] | null> {
  if (lines.length !== 2) return null;
  const dark = despeckle(image, width, box);
  const tables = [await loadTemplates('letters'), await loadTemplates('digits')];
  const out: string[] = [];
  const tallest = Math.max(...lines.map((line) => line.bottom - line.top));
  for (const [index, line] of lines.entries()) {
    const table = tables[index]!;
    const rough = textColumns(dark, width, box, line.top, line.bottom, tallest);
    if (!rough) return null;
    const rowInk = (y: number) => {
      let ink = 0;
      for (let x = rough.first; x <= rough.last; x += 1) ink += dark[y * width + x]!;
      return ink;
    };
    const reach = tallest;
    let top = line.top;
    while (top > line.top - reach && top > 0 && rowInk(top - 1) >= 3) top -= 1;
    let bottom = line.bottom;
    while (bottom < line.bottom + reach && rowInk(bottom) >= 3) bottom += 1;
    // The characters' columns again, over their full height.
    const span = textColumns(dark, width, box, top, bottom, tallest) ?? rough;
    out.push(readLine(dark, width, { ...box, left: span.first, right: span.last + 1 }, top, bottom, table, index === 0 ? () => LETTERS : lineTwoChars));
  }
  return [out[0]!, out[1]!];
}
