// Regenerates server/modules/passport-scan/ocr-b-glyphs.json: the outlines of the 37 characters
// an MRZ uses (A–Z, 0–9, <) from Matthew Skala's OCR-B (public domain; the
// Debian package fonts-ocr-b). The JSON is committed so the passport-image
// generator needs no installed font on a fresh machine (sharp draws the
// outlines as SVG paths). Run once: apt-get install fonts-ocr-b, then
// node --import tsx bench/mrz/extract-ocr-b-glyphs.ts
import { readFileSync, writeFileSync } from 'node:fs';
import opentype from 'opentype.js';

const FONT = process.argv[2] ?? '/usr/share/fonts/opentype/ocr-b/OCRB.otf';
const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

const n = (value: number | undefined) => String(Math.round(value ?? 0));
const pt = (x: number | undefined, y: number | undefined) => `${n(x)} ${n(-(y ?? 0))}`;
function svgPath(commands: Array<{ type: string; x?: number; y?: number; x1?: number; y1?: number; x2?: number; y2?: number }>): string {
  return commands
    .map((c) => {
      if (c.type === 'M' || c.type === 'L') return `${c.type}${pt(c.x, c.y)}`;
      if (c.type === 'Q') return `Q${pt(c.x1, c.y1)} ${pt(c.x, c.y)}`;
      if (c.type === 'C') return `C${pt(c.x1, c.y1)} ${pt(c.x2, c.y2)} ${pt(c.x, c.y)}`;
      return 'Z';
    })
    .join('');
}

const bytes = readFileSync(FONT);
const font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
const glyphs: Record<string, string> = {};
let advance = 0;
for (const char of CHARS) {
  const glyph = font.charToGlyph(char);
  advance = Math.max(advance, glyph.advanceWidth ?? 0);
  // Outline in font units with the baseline at y = 0, y growing downwards as in SVG (the font's y grows upwards).
  glyphs[char] = svgPath(glyph.path.commands);
}
const out = new URL('../../server/modules/passport-scan/ocr-b-glyphs.json', import.meta.url);
writeFileSync(
  out,
  `${JSON.stringify({ source: 'OCR-B by Matthew Skala (public domain), Debian fonts-ocr-b OCRB.otf', unitsPerEm: font.unitsPerEm, advance, ascender: font.ascender, glyphs }, null, 1)}\n`,
);
console.log(`${Object.keys(glyphs).length} glyphs, advance ${advance}/${font.unitsPerEm} → ${out.pathname}`);
