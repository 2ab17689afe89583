// Reading a passport photo's machine-readable zone on this server, offline:
// sharp straightens and cleans the image, tesseract.js (WebAssembly) reads it
// with the English model shipped in @tesseract.js-data/eng (its files are
// read from node_modules; nothing is fetched, nothing is cached on disk).
// One worker is started on the first scan and reused; scans queue on it.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { type Box, readOcrbLines } from './ocrb-reader.ts';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);
/** The LSTM model (integer "best"): the package's files, never a download. */
export const TESSDATA_DIR = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
const MRZ_WHITELIST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** Width the image is brought to before reading: MRZ characters then stand ~30 px tall. */
const WORK_WIDTH = 1600;

export interface MrzOcr {
  /**
   * The MRZ text of an image: the OCR-B reader's first, then tesseract's, each handed to `accept`
   * until one is accepted (the caller checks the check digits).
   */
  read(image: Buffer, accept: (text: string) => boolean): Promise<{ text: string; accepted: boolean; engine: 'ocr-b' | 'tesseract' }>;
  close(): Promise<void>;
}

/** Dark pixels of a grey image (1) after a light blur, by a threshold between paper and ink (Otsu's). */
function binarize(gray: Uint8Array | Buffer): Uint8Array {
  const histogram = new Float64Array(256);
  for (const value of gray) histogram[value]! += 1;
  const total = gray.length;
  let sum = 0;
  for (let i = 0; i < 256; i += 1) sum += i * histogram[i]!;
  let sumB = 0;
  let weightB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t += 1) {
    weightB += histogram[t]!;
    if (weightB === 0) continue;
    const weightF = total - weightB;
    if (weightF === 0) break;
    sumB += t * histogram[t]!;
    const between = weightB * weightF * (sumB / weightB - (sum - sumB) / weightF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  const dark = new Uint8Array(gray.length);
  for (let i = 0; i < gray.length; i += 1) dark[i] = gray[i]! <= threshold ? 1 : 0;
  return dark;
}

/** The ink without solid dark areas (the table the page lies on, a shadow): pixels whose 21×21 square is mostly dark. */
export function dropSolid(dark: Uint8Array, width: number, height: number): Uint8Array {
  const integral = new Uint32Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y += 1) {
    let row = 0;
    for (let x = 0; x < width; x += 1) {
      row += dark[y * width + x]!;
      integral[(y + 1) * (width + 1) + x + 1] = integral[y * (width + 1) + x + 1]! + row;
    }
  }
  const r = 10;
  const out = new Uint8Array(dark.length);
  for (let y = 0; y < height; y += 1) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height, y + r + 1);
    for (let x = 0; x < width; x += 1) {
      if (!dark[y * width + x]) continue;
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width, x + r + 1);
      const sum = integral[y1 * (width + 1) + x1]! - integral[y0 * (width + 1) + x1]! - integral[y1 * (width + 1) + x0]! + integral[y0 * (width + 1) + x0]!;
      out[y * width + x] = sum > 0.8 * (y1 - y0) * (x1 - x0) ? 0 : 1;
    }
  }
  return out;
}

/** Ink edges per row: text rows have many dark↔light changes, paper and a dark table few. */
function rowTransitions(dark: Uint8Array, width: number, height: number, tan = 0): Float64Array {
  const rows = new Float64Array(height);
  for (let y = 0; y < height; y += 1) {
    let count = 0;
    let previous = -1;
    for (let x = 0; x < width; x += 1) {
      const yy = Math.round(y + x * tan);
      if (yy < 0 || yy >= height) continue;
      const value = dark[yy * width + x]!;
      if (previous !== -1 && value !== previous) count += 1;
      previous = value;
    }
    rows[y] = count;
  }
  return rows;
}

/** The page's skew in degrees: the angle at which text rows stand out most sharply (projection profile of ink edges). */
function estimateSkew(dark: Uint8Array, width: number, height: number): number {
  // A quarter-resolution copy keeps this fast.
  const w = Math.floor(width / 4);
  const h = Math.floor(height / 4);
  const small = new Uint8Array(w * h);
  for (let y = 0; y < h; y += 1) for (let x = 0; x < w; x += 1) small[y * w + x] = dark[y * 4 * width + x * 4]!;
  const score = (degrees: number) => {
    let sum = 0;
    for (const value of rowTransitions(small, w, h, Math.tan(degrees * (Math.PI / 180)))) sum += value * value;
    return sum;
  };
  // Coarse (0.4°) over ±8°, then fine (0.05°) around the best.
  let best = 0;
  let bestScore = -1;
  for (let tenth = -80; tenth <= 80; tenth += 4) {
    const value = score(tenth / 10);
    if (value > bestScore) [best, bestScore] = [tenth / 10, value];
  }
  const coarse = best;
  for (let step = -8; step <= 8; step += 1) {
    const value = score(coarse + step * 0.05);
    if (value > bestScore) [best, bestScore] = [coarse + step * 0.05, value];
  }
  return best;
}

/** The MRZ's box: the lowest two long text lines (ink edges across most of the width). */
function findMrzBand(dark: Uint8Array, width: number, height: number): (Box & { lines: Array<{ top: number; bottom: number }> }) | null {
  const rows = rowTransitions(dark, width, height);
  const peak = Math.max(...rows);
  if (peak < 40) return null;
  const limit = peak * 0.35;
  const runs: Array<{ top: number; bottom: number }> = [];
  let open = -1;
  for (let y = 0; y <= height; y += 1) {
    const inText = y < height && rows[y]! >= limit;
    if (inText && open < 0) open = y;
    if (!inText && open >= 0) {
      if (y - open >= 6) runs.push({ top: open, bottom: y });
      open = -1;
    }
  }
  if (runs.length === 0) return null;
  const last = runs.at(-1)!;
  const lineHeight = last.bottom - last.top;
  const previous = runs.length >= 2 ? runs.at(-2)! : null;
  const pair =
    previous && last.top - previous.bottom < lineHeight * 2.5
      ? { top: previous.top, bottom: last.bottom }
      : { top: last.top - lineHeight * 2, bottom: last.bottom };
  const pad = Math.round(lineHeight * 0.6);
  const top = Math.max(0, pair.top - pad);
  const bottom = Math.min(height, pair.bottom + pad);
  // Horizontally: where the ink edges of those rows are.
  const columns = new Float64Array(width);
  for (let y = top; y < bottom; y += 1) for (let x = 1; x < width; x += 1) if (dark[y * width + x] !== dark[y * width + x - 1]) columns[x]! += 1;
  const columnLimit = Math.max(1, (bottom - top) * 0.04);
  let left = 0;
  while (left < width - 1 && columns[left]! < columnLimit) left += 1;
  let right = width - 1;
  while (right > left && columns[right]! < columnLimit) right -= 1;
  const lines = previous && last.top - previous.bottom < lineHeight * 2.5 ? [previous, last] : [last];
  return { top, bottom, left: Math.max(0, left - pad), right: Math.min(width, right + pad), lines };
}

export function createMrzOcr(): MrzOcr {
  let worker: Promise<Worker> | null = null;
  const start = () => {
    worker ??= createWorker('eng', OEM.LSTM_ONLY, { langPath: TESSDATA_DIR, cacheMethod: 'none', gzip: true }).then(async (w) => {
      await w.setParameters({
        tessedit_char_whitelist: MRZ_WHITELIST,
        tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
        preserve_interword_spaces: '0',
        user_defined_dpi: '300',
      });
      return w;
    });
    return worker;
  };

  return {
    async read(image, accept) {
      // Upright (EXIF), grey, a working size, contrast stretched, grain smoothed.
      const base = await sharp(image, { limitInputPixels: 50_000_000 })
        .rotate()
        .grayscale()
        .resize({ width: WORK_WIDTH })
        .normalise()
        .median(3)
        .toColourspace('b-w')
        .extractChannel(0)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { width, height } = base.info;
      const skew = estimateSkew(binarize(base.data), width, height);
      const straight = await sharp(base.data, { raw: { width, height, channels: 1 } })
        .rotate(-skew, { background: '#ffffff' })
        .toColourspace('b-w')
        .extractChannel(0)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const sw = straight.info.width;
      const sh = straight.info.height;
      const dark = dropSolid(binarize(straight.data), sw, sh);
      const band = findMrzBand(dark, sw, sh);
      if (band) {
        const lines = await readOcrbLines(dark, sw, band, band.lines);
        if (lines && accept(lines.join('\n'))) return { text: lines.join('\n'), accepted: true, engine: 'ocr-b' };
      }
      const w = await start();
      // The general model on the band, or on the image's lower part when no band was found.
      const boxes: Box[] = band ? [band] : [{ top: Math.round(sh * 0.6), bottom: sh, left: 0, right: sw }];
      let last = '';
      for (const box of boxes) {
        // The band alone, ink black on white, a white margin around.
        const crop = await sharp(straight.data, { raw: { width: sw, height: sh, channels: 1 } })
          .extract({ left: box.left, top: box.top, width: box.right - box.left, height: box.bottom - box.top })
          .normalise()
          .threshold(128)
          .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
          .png()
          .toBuffer();
        const { data: result } = await w.recognize(crop);
        last = result.text;
        if (accept(last)) return { text: last, accepted: true, engine: 'tesseract' };
      }
      return { text: last, accepted: false, engine: 'tesseract' };
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await (await w).terminate();
    },
  };
}
