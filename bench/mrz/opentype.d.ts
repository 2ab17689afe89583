// The little of opentype.js (which ships no types) that extract-ocr-b-glyphs.ts uses.
declare module 'opentype.js' {
  interface PathCommand {
    type: string;
    x?: number;
    y?: number;
    x1?: number;
    y1?: number;
    x2?: number;
    y2?: number;
  }
  interface Glyph {
    advanceWidth?: number;
    path: { commands: PathCommand[] };
  }
  interface Font {
    unitsPerEm: number;
    ascender: number;
    charToGlyph(char: string): Glyph;
  }
  const opentype: { parse(buffer: ArrayBuffer): Font };
  export default opentype;
}
