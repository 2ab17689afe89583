// The photo check's test set (issue 28), made from the sample photographs that
// ship in the @vladmandic/face-api npm package (README.md beside this file says
// where they come from and under which licence). Nothing is committed: the set
// is derived on demand with sharp.
//
// Every face found in the samples with both eyes visible and facing the camera
// becomes a base portrait: eyes levelled, the head cut out with a feathered
// ellipse and set on a plain background over a plain torso, framed like a
// 33×48 mm visa photo at 600 dpi. From each base:
//   ok           white background, as required               → pass
//   bg-blue      blue background where white is required      → fixed
//   bg-grey      grey background where blue is required       → fixed
//   tilted       turned by 8–12°                              → fixed
//   framing      small and off-centre on a large canvas       → fixed
//   dark         half the light                               → fixed
//   blurred      Gaussian blur (σ 5)                          → fail
//   small        120 px wide                                  → fail
// and from pairs of bases: two-faces (two people side by side) → fail; and
// no-face (the torso and background alone, or a corner of a sample) → fail.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { detectFaces } from '../../server/modules/photo-check/face-detector.ts';
import { BACKGROUNDS, type PhotoRule } from '../../server/modules/photo-check/photo-analysis.ts';

const require = createRequire(import.meta.url);
export const SAMPLE_DIR = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
export const SAMPLES = ['sample1.jpg', 'sample2.jpg', 'sample3.jpg', 'sample4.jpg', 'sample5.jpg', 'sample6.jpg'];

export type Expected = 'pass' | 'fixed' | 'fail';

export interface TestPhoto {
  name: string;
  kind: string;
  expected: Expected;
  rule: PhotoRule;
  bytes: Buffer;
  /** Where the face came from (sample file, face number). */
  source: string;
}

const WHITE_RULE: PhotoRule = { color: 1, width: 33, height: 48 };
const BLUE_RULE: PhotoRule = { color: 0, width: 33, height: 48 };
/** Base canvas: 33×48 mm at 600 dpi. */
const CW = 780;
const CH = 1134;

interface Base {
  source: string;
  /** The head cut out: RGBA, with the eye midpoint, chin and head height in its pixels. */
  head: Buffer;
  width: number;
  height: number;
  eyes: { x: number; y: number };
  headH: number;
  skin: [number, number, number];
}

const hex = (c: readonly number[]) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

async function basesFrom(file: string): Promise<Base[]> {
  const { data, info } = await sharp(join(SAMPLE_DIR, file)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const faces = await detectFaces(data, info.width, info.height);
  const bases: Base[] = [];
  for (const [n, face] of faces.entries()) {
    if (face.score < 0.9) continue;
    const lm = face.landmarks;
    const avg = (ps: typeof lm) => ({ x: ps.reduce((s, p) => s + p.x, 0) / ps.length, y: ps.reduce((s, p) => s + p.y, 0) / ps.length });
    const a = avg(lm.slice(36, 42));
    const b = avg(lm.slice(42, 48));
    const eyes = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    const span = Math.hypot(b.x - a.x, b.y - a.y);
    const roll = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
    const yaw = Math.abs((lm[30]!.x - eyes.x) * Math.cos((roll * Math.PI) / 180) + (lm[30]!.y - eyes.y) * Math.sin((roll * Math.PI) / 180)) / span;
    if (yaw > 0.15 || Math.abs(roll) > 30) continue;
    const eyeChin = Math.hypot(lm[8]!.x - eyes.x, lm[8]!.y - eyes.y);
    // A square around the eyes, levelled.
    const side = Math.round(eyeChin * 4.4);
    const left = Math.round(eyes.x - side / 2);
    const top = Math.round(eyes.y - side / 2);
    const ext = {
      left: Math.max(0, -left),
      top: Math.max(0, -top),
      right: Math.max(0, left + side - info.width),
      bottom: Math.max(0, top + side - info.height),
    };
    const extended = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .extend({ ...ext, background: '#808080' })
      .raw()
      .toBuffer();
    const cut = await sharp(extended, { raw: { width: info.width + ext.left + ext.right, height: info.height + ext.top + ext.bottom, channels: 3 } })
      .extract({ left: left + ext.left, top: top + ext.top, width: side, height: side })
      .raw()
      .toBuffer();
    const square = await sharp(cut, { raw: { width: side, height: side, channels: 3 } })
      .rotate(-roll, { background: '#808080' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const s = square.info.width;
    const headH = eyeChin * 2.05;
    const cx = s / 2;
    const chinY = s / 2 + eyeChin;
    const headCy = chinY - headH / 2;
    const mask = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}"><rect width="${s}" height="${s}" fill="black"/>` +
          `<ellipse cx="${cx}" cy="${headCy}" rx="${headH * 0.4}" ry="${headH * 0.53}" fill="white"/>` +
          `<rect x="${cx - headH * 0.17}" y="${headCy}" width="${headH * 0.34}" height="${headH * 0.75}" fill="white"/></svg>`,
      ),
    )
      .blur(Math.max(1, headH * 0.015))
      .greyscale()
      .extractChannel(0)
      .raw()
      .toBuffer();
    const head = await sharp(square.data, { raw: { width: s, height: s, channels: 3 } })
      .joinChannel(mask, { raw: { width: s, height: s, channels: 1 } })
      .png()
      .toBuffer();
    const skinStats = await sharp(square.data, { raw: { width: s, height: s, channels: 3 } })
      .extract({ left: Math.round(cx - span * 0.4), top: Math.round(s / 2 + eyeChin * 0.3), width: Math.round(span * 0.8), height: Math.round(eyeChin * 0.3) })
      .stats();
    bases.push({
      source: `${file} 第 ${n + 1} 张脸`,
      head,
      width: s,
      height: s,
      eyes: { x: cx, y: s / 2 },
      headH,
      skin: skinStats.channels.slice(0, 3).map((c) => Math.round(c.mean)) as [number, number, number],
    });
  }
  return bases;
}

/** A portrait: the base's head at `headPx` tall, its crown `crownY` from the top, centred at `cx`, on `background`, over a torso. */
async function portrait(
  base: Base,
  opt: { width: number; height: number; background: readonly number[]; headPx: number; cx: number; crownY: number; withHead?: boolean },
) {
  const k = opt.headPx / base.headH;
  const size = Math.round(base.width * k);
  const eyeChin = base.headH / 2.05;
  // Where the scaled square goes so that its crown lands at crownY.
  const crownInSquare = (base.eyes.y + eyeChin - base.headH) * k;
  const left = Math.round(opt.cx - size / 2);
  const top = Math.round(opt.crownY - crownInSquare);
  const chinY = opt.crownY + opt.headPx;
  const torso =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${opt.width}" height="${opt.height}">` +
    `<rect x="${opt.cx - opt.headPx * 0.17}" y="${chinY - opt.headPx * 0.2}" width="${opt.headPx * 0.34}" height="${opt.headPx * 0.5}" fill="${hex(base.skin)}"/>` +
    `<ellipse cx="${opt.cx}" cy="${chinY + opt.headPx * 0.62}" rx="${opt.headPx * 0.95}" ry="${opt.headPx * 0.45}" fill="#2b2f3a"/></svg>`;
  const layers: OverlayOptions[] = [{ input: Buffer.from(torso), left: 0, top: 0 }];
  if (opt.withHead !== false) {
    const head = await sharp(base.head).resize(size, size).toBuffer();
    // Clip what falls outside the canvas.
    const clip = {
      left: Math.max(0, -left),
      top: Math.max(0, -top),
      width: Math.min(size, opt.width - left) - Math.max(0, -left),
      height: Math.min(size, opt.height - top) - Math.max(0, -top),
    };
    layers.push({ input: await sharp(head).extract(clip).toBuffer(), left: Math.max(0, left), top: Math.max(0, top) });
  }
  return sharp({ create: { width: opt.width, height: opt.height, channels: 3, background: hex(opt.background) } })
    .composite(layers)
    .jpeg({ quality: 92 })
    .toBuffer();
}

const standard = (base: Base, background: readonly number[]) =>
  portrait(base, { width: CW, height: CH, background, headPx: CH * 0.64, cx: CW / 2, crownY: CH * 0.09 });

export async function generatePhotoSet(): Promise<TestPhoto[]> {
  const bases: Base[] = [];
  for (const file of SAMPLES) bases.push(...(await basesFrom(file)));
  const chosen = bases.slice(0, 6);
  const set: TestPhoto[] = [];
  const add = (kind: string, expected: Expected, rule: PhotoRule, bytes: Buffer, source: string) =>
    set.push({ name: `${kind}-${set.filter((p) => p.kind === kind).length + 1}`, kind, expected, rule, bytes, source });

  for (const [i, base] of chosen.entries()) {
    const ok = await standard(base, BACKGROUNDS[1]!);
    add('ok', 'pass', WHITE_RULE, ok, base.source);
    add('bg-blue', 'fixed', WHITE_RULE, await standard(base, BACKGROUNDS[0]!), base.source);
    add('bg-grey', 'fixed', BLUE_RULE, await standard(base, [200, 200, 196]), base.source);
    const turn = (i % 2 === 0 ? 1 : -1) * (8 + (i % 3) * 2);
    add('tilted', 'fixed', WHITE_RULE, await sharp(ok).rotate(turn, { background: '#ffffff' }).jpeg({ quality: 92 }).toBuffer(), base.source);
    add(
      'framing',
      'fixed',
      WHITE_RULE,
      await portrait(base, { width: 1500, height: 1500, background: BACKGROUNDS[1]!, headPx: 520, cx: 600 + i * 60, crownY: 380 }),
      base.source,
    );
    add('dark', 'fixed', WHITE_RULE, await sharp(ok).linear(0.5, 0).jpeg({ quality: 92 }).toBuffer(), base.source);
    add('blurred', 'fail', WHITE_RULE, await sharp(ok).blur(5).jpeg({ quality: 92 }).toBuffer(), base.source);
    add('small', 'fail', WHITE_RULE, await sharp(ok).resize(120).jpeg({ quality: 92 }).toBuffer(), base.source);
  }
  for (let i = 0; i < 4; i++) {
    const a = chosen[i % chosen.length]!;
    const b = chosen[(i + 1) % chosen.length]!;
    const one = await standard(a, BACKGROUNDS[1]!);
    const two = await standard(b, BACKGROUNDS[1]!);
    const pair = await sharp({ create: { width: CW * 2, height: CH, channels: 3, background: '#ffffff' } })
      .composite([
        { input: one, left: 0, top: 0 },
        { input: two, left: CW, top: 0 },
      ])
      .jpeg({ quality: 90 })
      .toBuffer();
    add('two-faces', 'fail', WHITE_RULE, pair, `${a.source} + ${b.source}`);
  }
  for (let i = 0; i < 2; i++) {
    const base = chosen[i]!;
    add(
      'no-face',
      'fail',
      WHITE_RULE,
      await portrait(base, { width: CW, height: CH, background: BACKGROUNDS[1]!, headPx: CH * 0.64, cx: CW / 2, crownY: CH * 0.09, withHead: false }),
      base.source,
    );
  }
  for (const [i, file] of ['sample1.jpg', 'sample4.jpg'].entries()) {
    // A corner of a sample with nobody in it (floor, wall).
    const meta = await sharp(join(SAMPLE_DIR, file)).metadata();
    const region =
      i === 0 ? { left: 0, top: meta.height! - 500, width: 340, height: 500 } : { left: meta.width! - 340, top: meta.height! - 500, width: 340, height: 500 };
    add(
      'no-face',
      'fail',
      WHITE_RULE,
      await sharp(readFileSync(join(SAMPLE_DIR, file)))
        .extract(region)
        .jpeg()
        .toBuffer(),
      file,
    );
  }
  return set;
}

/** One portrait of the first usable face of a sample on a plain background (the API and browser tests' photo). */
export async function samplePortrait(background: 'white' | 'blue' | 'grey', file = 'sample6.jpg'): Promise<Buffer> {
  const [base] = await basesFrom(file);
  if (!base) throw new Error(`no usable face in ${file}`);
  const colour = background === 'white' ? BACKGROUNDS[1]! : background === 'blue' ? BACKGROUNDS[0]! : [200, 200, 196];
  return standard(base, colour);
}
