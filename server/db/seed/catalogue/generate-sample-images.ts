// Draws the '查看样例' images of the materials list: simple shapes standing for
// each document's layout (photo box, text lines, tables, stamps), no text.
// Run once: npx tsx server/db/seed/catalogue/generate-sample-images.ts
// Writes public/material-samples/<file>.png, one per SAMPLE_FILES entry.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { SAMPLE_FILES, type SampleFile } from './materials.ts';

type Rgb = readonly [number, number, number];

const WIDTH = 480;
const HEIGHT = 340;

const WHITE: Rgb = [255, 255, 255];
const PAPER: Rgb = [250, 248, 242];
const DESK: Rgb = [226, 230, 236];
const INK: Rgb = [70, 76, 88];
const LIGHT_INK: Rgb = [170, 176, 186];
const FAINT: Rgb = [222, 226, 232];
const STAMP: Rgb = [214, 48, 49];
const SKIN: Rgb = [236, 200, 170];
const HAIR: Rgb = [60, 48, 40];
const SHIRT: Rgb = [52, 84, 140];

class Canvas {
  readonly pixels: Uint8Array;
  /** Drawing outside this box is dropped (the photo box of a portrait). */
  private clip: { x: number; y: number; w: number; h: number } | null = null;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    this.rect(0, 0, width, height, background);
  }

  set(x: number, y: number, [r, g, b]: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const clip = this.clip;
    if (clip && (x < clip.x || y < clip.y || x >= clip.x + clip.w || y >= clip.y + clip.h)) return;
    const i = (Math.floor(y) * this.width + Math.floor(x)) * 3;
    this.pixels[i] = r;
    this.pixels[i + 1] = g;
    this.pixels[i + 2] = b;
  }

  rect(x: number, y: number, w: number, h: number, color: Rgb): void {
    for (let yy = y; yy < y + h; yy += 1) for (let xx = x; xx < x + w; xx += 1) this.set(xx, yy, color);
  }

  frame(x: number, y: number, w: number, h: number, color: Rgb, thickness = 1): void {
    this.rect(x, y, w, thickness, color);
    this.rect(x, y + h - thickness, w, thickness, color);
    this.rect(x, y, thickness, h, color);
    this.rect(x + w - thickness, y, thickness, h, color);
  }

  /** A filled rectangle with rounded corners. */
  card(x: number, y: number, w: number, h: number, radius: number, color: Rgb): void {
    for (let yy = 0; yy < h; yy += 1) {
      for (let xx = 0; xx < w; xx += 1) {
        const dx = xx < radius ? radius - xx : xx >= w - radius ? xx - (w - radius - 1) : 0;
        const dy = yy < radius ? radius - yy : yy >= h - radius ? yy - (h - radius - 1) : 0;
        if (dx * dx + dy * dy <= radius * radius) this.set(x + xx, y + yy, color);
      }
    }
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, color: Rgb, ring = 0): void {
    for (let y = Math.floor(cy - ry); y <= cy + ry; y += 1) {
      for (let x = Math.floor(cx - rx); x <= cx + rx; x += 1) {
        const d = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2;
        const inner = ring > 0 ? ((x - cx) / (rx - ring)) ** 2 + ((y - cy) / (ry - ring)) ** 2 : 2;
        if (d <= 1 && inner > 1) this.set(x, y, color);
      }
    }
  }

  line(x0: number, y0: number, x1: number, y1: number, color: Rgb, thickness = 1): void {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let i = 0; i <= steps; i += 1) {
      const x = x0 + ((x1 - x0) * i) / steps;
      const y = y0 + ((y1 - y0) * i) / steps;
      this.rect(Math.round(x), Math.round(y), thickness, thickness, color);
    }
  }

  /** Lines of "text": bars of varying length. */
  text(x: number, y: number, widths: number[], color: Rgb = LIGHT_INK, gap = 16, height = 6): void {
    widths.forEach((w, i) => this.rect(x, y + i * gap, w, height, color));
  }

  /** A red seal: a ring, an inner star-like cross and a bar. */
  stamp(cx: number, cy: number, r: number): void {
    this.ellipse(cx, cy, r, r, STAMP, 4);
    this.ellipse(cx, cy - r / 4, r / 5, r / 5, STAMP);
    this.rect(cx - r / 2, cy + r / 4, r, 4, STAMP);
  }

  /** A head-and-shoulders silhouette in a photo box. */
  portrait(x: number, y: number, w: number, h: number, background: Rgb): void {
    this.rect(x, y, w, h, background);
    const cx = x + w / 2;
    const head = Math.min(w, h);
    this.clip = { x, y, w, h };
    this.ellipse(cx, y + h * 1.05, w * 0.46, h * 0.3, SHIRT);
    this.rect(cx - head * 0.07, y + h * 0.58, head * 0.14, h * 0.14, SKIN);
    this.ellipse(cx, y + h * 0.44, head * 0.2, h * 0.2, SKIN);
    this.ellipse(cx, y + h * 0.3, head * 0.21, h * 0.09, HAIR);
    this.clip = null;
    this.frame(x, y, w, h, LIGHT_INK);
  }

  signature(x: number, y: number): void {
    let px = x;
    let py = y;
    for (let i = 1; i <= 8; i += 1) {
      const nx = x + i * 9;
      const ny = y + (i % 2 === 0 ? -8 : 6);
      this.line(px, py, nx, ny, INK, 2);
      px = nx;
      py = ny;
    }
  }

  png(): Buffer {
    const raw = Buffer.alloc((this.width * 3 + 1) * this.height);
    for (let y = 0; y < this.height; y += 1) {
      const row = y * (this.width * 3 + 1);
      raw[row] = 0;
      raw.set(this.pixels.subarray(y * this.width * 3, (y + 1) * this.width * 3), row + 1);
    }
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 8; // bit depth
    header[9] = 2; // colour type: RGB
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw, { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A sheet of paper on the desk with a letterhead bar. */
function sheet(c: Canvas, accent: Rgb): void {
  c.rect(96, 14, 288, 318, [200, 204, 210]);
  c.rect(92, 10, 288, 318, PAPER);
  c.rect(92, 10, 288, 26, accent);
  c.rect(108, 18, 80, 10, WHITE);
}

const DRAWINGS: Record<SampleFile, (c: Canvas) => void> = {
  'passport-bio-page': (c) => {
    c.card(30, 40, 420, 260, 10, [236, 226, 214]);
    for (let y = 50; y < 290; y += 12) c.line(40, y, 440, y + 6, [228, 214, 200]);
    c.rect(40, 52, 400, 10, [150, 40, 50]);
    c.portrait(52, 78, 104, 132, WHITE);
    c.text(176, 82, [70, 150, 110, 180, 90, 140, 120], INK, 18);
    c.ellipse(400, 110, 24, 24, [190, 160, 130], 3);
    c.rect(40, 236, 400, 54, [244, 238, 230]);
    for (const y of [246, 268]) for (let x = 48; x < 430; x += 11) c.rect(x, y, 8, 12, INK);
  },
  'id-card': (c) => {
    c.card(50, 50, 380, 240, 16, [214, 232, 242]);
    c.ellipse(360, 130, 70, 70, [200, 222, 236]);
    c.text(76, 82, [40, 90], INK, 22, 8);
    c.text(76, 130, [60, 150, 100], LIGHT_INK, 22, 8);
    c.text(76, 200, [200, 180], LIGHT_INK, 18, 8);
    c.portrait(304, 78, 100, 124, [214, 232, 242]);
    c.rect(76, 256, 330, 12, INK);
  },
  'household-register': (c) => {
    sheet(c, [96, 112, 140]);
    c.frame(108, 50, 256, 250, INK, 2);
    for (let y = 50; y <= 300; y += 25) c.rect(108, y, 256, 1, INK);
    for (const x of [168, 236, 296]) c.rect(x, 50, 1, 250, INK);
    for (let y = 58; y < 300; y += 25) {
      c.rect(116, y, 40, 6, LIGHT_INK);
      c.rect(176, y, 52, 6, LIGHT_INK);
      c.rect(244, y, 44, 6, LIGHT_INK);
      c.rect(304, y, 50, 6, LIGHT_INK);
    }
    c.stamp(320, 270, 26);
  },
  'employment-certificate': (c) => {
    sheet(c, [40, 100, 180]);
    c.rect(196, 52, 80, 10, INK);
    c.text(116, 82, [240, 230, 236, 210, 240, 180, 236, 120], LIGHT_INK, 20);
    c.text(250, 256, [96, 80], INK, 18);
    c.stamp(300, 262, 34);
    c.signature(130, 290);
  },
  'bank-statement': (c) => {
    sheet(c, [20, 120, 110]);
    c.text(108, 48, [120, 200], INK, 14);
    c.rect(108, 84, 256, 16, [210, 224, 220]);
    for (let i = 0; i < 10; i += 1) {
      const y = 102 + i * 18;
      if (i % 2 === 1) c.rect(108, y, 256, 18, [240, 244, 243]);
      c.rect(114, y + 6, 40, 6, LIGHT_INK);
      c.rect(170, y + 6, 80, 6, LIGHT_INK);
      c.rect(306, y + 6, 50 - (i % 3) * 8, 6, INK);
    }
    c.stamp(320, 298, 22);
  },
  'deposit-certificate': (c) => {
    c.rect(40, 40, 400, 260, [252, 246, 230]);
    c.frame(40, 40, 400, 260, [196, 160, 80], 4);
    c.frame(52, 52, 376, 236, [196, 160, 80], 1);
    c.rect(180, 68, 120, 14, INK);
    c.text(76, 104, [320, 280, 300], LIGHT_INK, 22);
    c.rect(76, 180, 200, 34, WHITE);
    c.frame(76, 180, 200, 34, INK, 2);
    c.rect(90, 193, 150, 8, INK);
    c.text(76, 236, [160, 120], LIGHT_INK, 20);
    c.stamp(360, 226, 34);
  },
  'business-licence': (c) => {
    c.rect(30, 24, 420, 292, [252, 250, 244]);
    c.frame(30, 24, 420, 292, [190, 150, 70], 6);
    c.frame(44, 38, 392, 264, [190, 150, 70], 2);
    c.ellipse(240, 70, 20, 20, STAMP);
    c.rect(190, 98, 100, 14, INK);
    for (let y = 60; y < 100; y += 8) for (let x = 64; x < 104; x += 8) if ((x * 7 + y * 3) % 16 < 8) c.rect(x, y, 8, 8, INK);
    c.text(72, 134, [150, 170, 130, 160, 120], LIGHT_INK, 22);
    c.text(260, 134, [140, 120, 150, 100, 130], LIGHT_INK, 22);
    c.stamp(360, 262, 30);
  },
  'retirement-certificate': (c) => {
    c.card(24, 40, 206, 260, 8, [150, 30, 36]);
    c.ellipse(127, 130, 34, 34, [228, 190, 90], 5);
    c.rect(77, 200, 100, 12, [228, 190, 90]);
    c.card(250, 40, 206, 260, 8, [248, 244, 236]);
    c.portrait(266, 60, 70, 90, WHITE);
    c.text(350, 66, [80, 60, 90, 70], LIGHT_INK, 20);
    c.text(266, 170, [170, 150, 174, 120], LIGHT_INK, 20);
    c.stamp(400, 262, 26);
  },
  'student-certificate': (c) => {
    c.card(24, 40, 206, 260, 8, [30, 80, 150]);
    c.ellipse(127, 120, 36, 36, [220, 226, 240], 5);
    c.rect(72, 190, 110, 12, [220, 226, 240]);
    c.card(250, 40, 206, 260, 8, WHITE);
    c.portrait(266, 60, 70, 90, [214, 232, 242]);
    c.text(350, 66, [80, 60, 90, 70], LIGHT_INK, 20);
    c.text(266, 170, [170, 150, 174], LIGHT_INK, 20);
    for (let x = 266; x < 440; x += 44) c.frame(x, 238, 38, 38, FAINT, 2);
    c.stamp(305, 257, 18);
  },
  'birth-certificate': (c) => {
    c.rect(40, 20, 400, 300, [246, 252, 246]);
    c.frame(40, 20, 400, 300, [80, 160, 110], 8);
    c.rect(170, 44, 140, 14, INK);
    c.frame(64, 76, 352, 200, [120, 170, 140], 1);
    for (let y = 76; y < 276; y += 25) c.rect(64, y, 352, 1, [120, 170, 140]);
    c.rect(176, 76, 1, 200, [120, 170, 140]);
    for (let y = 84; y < 276; y += 25) {
      c.rect(74, y, 80, 6, LIGHT_INK);
      c.rect(188, y, 120 + ((y * 13) % 90), 6, LIGHT_INK);
    }
    c.stamp(370, 288, 22);
  },
  'invitation-letter': (c) => {
    sheet(c, [120, 60, 140]);
    c.text(116, 54, [110], INK);
    c.text(116, 84, [250, 240, 252, 220, 246, 200, 250, 236, 160], LIGHT_INK, 18);
    c.signature(250, 270);
    c.text(250, 292, [100], INK);
  },
  'visa-photo': (c) => {
    c.rect(0, 0, WIDTH, HEIGHT, DESK);
    c.rect(150, 30, 180, 232, WHITE);
    c.portrait(150, 30, 180, 232, WHITE);
    // Guides: head height and eye line.
    for (let x = 150; x < 330; x += 8) c.rect(x, 128, 4, 1, STAMP);
    c.line(344, 78, 344, 196, STAMP);
    c.rect(338, 78, 13, 2, STAMP);
    c.rect(338, 196, 13, 2, STAMP);
    c.line(150, 284, 330, 284, INK);
    c.rect(150, 278, 2, 13, INK);
    c.rect(328, 278, 2, 13, INK);
  },
};

export function generateSampleImages(outDir = new URL('../../../../public/material-samples/', import.meta.url)): string[] {
  mkdirSync(outDir, { recursive: true });
  return SAMPLE_FILES.map((file) => {
    const canvas = new Canvas(WIDTH, HEIGHT, DESK);
    DRAWINGS[file](canvas);
    const png = canvas.png();
    writeFileSync(new URL(`${file}.png`, outDir), png);
    return `${file}.png ${png.length} bytes`;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const line of generateSampleImages()) console.log(line);
}
