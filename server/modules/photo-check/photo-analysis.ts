// The visa photo check itself (issue 28): one uploaded photo against the
// order's photo rule (background colour, width × height in mm) and the usual
// rules — exactly one face, head size and position, eyes open and level, no
// strong shadow, enough pixels for the print size at 300 dpi, not blurred.
//
// What can be fixed is fixed in one pass and listed in Chinese: straighten
// (eyes level), crop and scale (head ~64% of the height, crown ~9% from the
// top, centred, the rule's aspect ratio, 300 dpi), brightness, and a plain
// background of another colour replaced by the required one (flood fill from
// the border over the background's colour, the face ellipse protected, the
// edge feathered). What cannot — no face, several faces, too few pixels,
// blur, a background that is not plain, a strong shadow, closed eyes — is
// said, each reason a line, and nothing is produced.
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { PHOTO_COLORS } from '../../../common/constants.ts';
import type { PhotoVerdict } from '../../../common/photo-check.ts';
import { detectFaces, type DetectedFace, type FaceDetector, type Point } from './face-detector.ts';

export interface PhotoRule {
  /** 0 blue, 1 white, 2 red, 3 grey. */
  color: number;
  /** mm */
  width: number;
  height: number;
}

export interface PhotoAnalysis {
  verdict: Exclude<PhotoVerdict, 'error'>;
  problems: string[];
  fixes: string[];
  /** The processed photo (JPEG, the rule's size at 300 dpi) when verdict is fixed. */
  processed: Buffer | null;
  /** What was measured (kept with the check; the bench prints it). */
  measures: Record<string, number | string>;
  /** Not a photo at all (the upload is refused): bytes that do not decode, or too many pixels. */
  refusal?: 'unreadable' | 'pixels';
}

/** Larger images are refused before they are decoded (a decompression bomb stays a refusal). */
export const MAX_PHOTO_PIXELS = 40_000_000;
/** The detector sees the photo with this long side. */
const DETECT_SIDE = 800;
const DPI = 300;
/** Target layout: head (crown to chin) share of the height, crown margin share of the height. */
const HEAD_SHARE = 0.64;
const CROWN_MARGIN = 0.09;
/** Accepted as uploaded. */
const HEAD_SHARE_OK: [number, number] = [0.52, 0.78];
const CROWN_MARGIN_OK: [number, number] = [0.02, 0.18];
/** Crown to chin ≈ this × eye line to chin. */
const HEAD_PER_EYE_CHIN = 2.05;

export const BACKGROUNDS: Record<number, [number, number, number]> = {
  0: [67, 142, 219],
  1: [255, 255, 255],
  2: [216, 30, 42],
  3: [190, 190, 190],
};

function colorName(color: number): string {
  return PHOTO_COLORS[color as keyof typeof PHOTO_COLORS] ?? '指定颜色';
}

export function requiredPixels(rule: PhotoRule): { width: number; height: number } {
  return { width: Math.round((rule.width / 25.4) * DPI), height: Math.round((rule.height / 25.4) * DPI) };
}

const mean = (points: Point[]): Point => ({
  x: points.reduce((s, p) => s + p.x, 0) / points.length,
  y: points.reduce((s, p) => s + p.y, 0) / points.length,
});
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Eye aspect ratio of six landmarks (corner, top, top, corner, bottom, bottom). */
function eyeOpenness(p: Point[]): number {
  return (dist(p[1]!, p[5]!) + dist(p[2]!, p[4]!)) / (2 * dist(p[0]!, p[3]!));
}

function fail(problems: string[], measures: PhotoAnalysis['measures']): PhotoAnalysis {
  return { verdict: 'fail', problems, fixes: [], processed: null, measures };
}

/**
 * Sharpness of a grey image: the Laplacian's energy (the finest detail) over the gradient's (the
 * edges). Blur takes the first away much faster than the second, whatever the face's texture.
 */
function sharpness(grey: Buffer, width: number, height: number): { laplacian: number; ratio: number } {
  let lap = 0;
  let grad = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const v = grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!;
      const gx = grey[i + 1]! - grey[i - 1]!;
      const gy = grey[i + width]! - grey[i - width]!;
      lap += v * v;
      grad += gx * gx + gy * gy;
      n++;
    }
  }
  return { laplacian: lap / n, ratio: grad > 0 ? lap / grad : 0 };
}

/** Median and spread (mean absolute deviation) of the RGB pixels chosen by `pick`. */
function sampleColor(rgb: Buffer, width: number, height: number, pick: (x: number, y: number) => boolean, step = 2) {
  const channels: number[][] = [[], [], []];
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      if (!pick(x, y)) continue;
      const i = (y * width + x) * 3;
      channels[0]!.push(rgb[i]!);
      channels[1]!.push(rgb[i + 1]!);
      channels[2]!.push(rgb[i + 2]!);
    }
  }
  if (channels[0]!.length < 50) return null;
  const median = channels.map((c) => c.sort((a, b) => a - b)[c.length >> 1]!) as [number, number, number];
  // Median absolute deviation: hair or a shoulder reaching into the sample does not make a plain wall look busy.
  const spread =
    channels.reduce((s, c, k) => {
      const deviations = c.map((v) => Math.abs(v - median[k]!)).sort((a, b) => a - b);
      return s + deviations[deviations.length >> 1]!;
    }, 0) / 3;
  return { median, spread, count: channels[0]!.length };
}

const colorDistance = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** The rule colour nearest to a background colour, and how far it is. */
function nearestBackground(color: readonly number[]): { color: number; distance: number } {
  let best = { color: -1, distance: Infinity };
  for (const [key, target] of Object.entries(BACKGROUNDS)) {
    const d = colorDistance(color, target);
    if (d < best.distance) best = { color: Number(key), distance: d };
  }
  return best;
}

export async function analysePhoto(bytes: Buffer, rule: PhotoRule, detector: FaceDetector = detectFaces): Promise<PhotoAnalysis> {
  const measures: PhotoAnalysis['measures'] = {};
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ...fail(['无法读取这张照片：文件不是有效的 JPEG 或 PNG 图片'], measures), refusal: 'unreadable' };
  }
  if (!meta.width || !meta.height || (meta.format !== 'jpeg' && meta.format !== 'png')) {
    return { ...fail(['无法读取这张照片：文件不是有效的 JPEG 或 PNG 图片'], measures), refusal: 'unreadable' };
  }
  if (meta.width * meta.height > MAX_PHOTO_PIXELS) {
    return { ...fail([`照片像素过多（${meta.width}×${meta.height}），请上传不超过 4000 万像素的照片`], measures), refusal: 'pixels' };
  }
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS })
      .rotate()
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return { ...fail(['无法读取这张照片：图片数据不完整或已损坏'], measures), refusal: 'unreadable' };
  }
  if (decoded.info.width < 48 || decoded.info.height < 48) {
    return fail([`照片太小（${decoded.info.width}×${decoded.info.height} 像素）：请上传原图，不要截图或压缩`], measures);
  }
  const W = decoded.info.width;
  const H = decoded.info.height;
  const raw = { raw: { width: W, height: H, channels: 3 as const } };
  measures.size = `${W}x${H}`;

  // Faces, found on a copy with a long side of at most DETECT_SIDE.
  const scale = Math.min(1, DETECT_SIDE / Math.max(W, H));
  const sw = Math.max(1, Math.round(W * scale));
  const sh = Math.max(1, Math.round(H * scale));
  const small = scale < 1 ? await sharp(decoded.data, raw).resize(sw, sh).raw().toBuffer() : decoded.data;
  // A dark photo is brightened for the detector only (the fix, if any, comes later).
  const { channels: stats } = await sharp(small, { raw: { width: sw, height: sh, channels: 3 } }).stats();
  const overall = 0.299 * stats[0]!.mean + 0.587 * stats[1]!.mean + 0.114 * stats[2]!.mean;
  const seen =
    overall < 100
      ? await sharp(small, { raw: { width: sw, height: sh, channels: 3 } })
          .linear(Math.min(2.5, 130 / Math.max(overall, 1)), 0)
          .raw()
          .toBuffer()
      : small;
  const found: DetectedFace[] = await detector(seen, sw, sh);
  const faces = found.map((f) => ({
    ...f,
    box: { x: f.box.x / scale, y: f.box.y / scale, width: f.box.width / scale, height: f.box.height / scale },
    landmarks: f.landmarks.map((p) => ({ x: p.x / scale, y: p.y / scale })),
  }));
  measures.faces = faces.length;
  if (faces.length === 0) return fail(['未检测到人脸：请正对镜头，露出完整面部后重新拍摄'], measures);
  if (faces.length > 1) return fail([`检测到 ${faces.length} 张人脸：照片中只能有申请人本人`], measures);
  const face = faces[0]!;
  const lm = face.landmarks;

  const problems: string[] = [];
  const fixes: string[] = [];
  const req = requiredPixels(rule);

  // Eyes: level (roll) and open.
  const eyeA = mean(lm.slice(36, 42));
  const eyeB = mean(lm.slice(42, 48));
  const roll = (Math.atan2(eyeB.y - eyeA.y, eyeB.x - eyeA.x) * 180) / Math.PI;
  measures.roll = Number(roll.toFixed(1));
  const openness = Math.max(eyeOpenness(lm.slice(36, 42)), eyeOpenness(lm.slice(42, 48)));
  measures.eyes = Number(openness.toFixed(3));
  if (openness < 0.12) problems.push('眼睛未睁开或被遮挡：请睁开双眼、正视镜头');
  if (Math.abs(roll) > 25) problems.push(`头部倾斜过大（约 ${Math.round(Math.abs(roll))}°）：请端正头部重新拍摄`);
  const eyeMid = { x: (eyeA.x + eyeB.x) / 2, y: (eyeA.y + eyeB.y) / 2 };
  const nose = lm[30]!;
  const eyeSpan = dist(eyeA, eyeB);
  const yaw = Math.abs(((nose.x - eyeMid.x) * Math.cos((roll * Math.PI) / 180) + (nose.y - eyeMid.y) * Math.sin((roll * Math.PI) / 180)) / eyeSpan);
  measures.yaw = Number(yaw.toFixed(3));
  if (yaw > 0.3) problems.push('面部未正对镜头：请正面朝向镜头重新拍摄');

  // Sharpness on the face, scaled so the eyes are 60 px apart (independent of the photo's size).
  {
    const k = 60 / eyeSpan;
    const left = Math.max(0, Math.round(face.box.x));
    const top = Math.max(0, Math.round(face.box.y));
    const width = Math.min(W - left, Math.round(face.box.width));
    const height = Math.min(H - top, Math.round(face.box.height));
    if (width > 8 && height > 8) {
      const grey = await sharp(decoded.data, raw)
        .extract({ left, top, width, height })
        .resize(Math.max(8, Math.round(width * k)), Math.max(8, Math.round(height * k)))
        .greyscale()
        .normalise()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { laplacian, ratio } = sharpness(grey.data, grey.info.width, grey.info.height);
      // Both the finest detail's amount and its share of the edges: a textured face blurred keeps some
      // of the first, a smooth sharp face has little of it but a high share.
      const score = laplacian * ratio;
      measures.sharpness = Number(score.toFixed(1));
      if (score < 6.5) problems.push('照片模糊：请保持手机稳定、对焦后重新拍摄');
    }
  }

  // Straightened geometry: sharp's rotate(angle) turns clockwise and grows the canvas.
  const angle = Math.abs(roll) > 3.5 ? -roll : 0;
  const rad = (angle * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const RW = Math.round(Math.abs(W * cos) + Math.abs(H * sin));
  const RH = Math.round(Math.abs(W * sin) + Math.abs(H * cos));
  const turn = (p: Point): Point => {
    const dx = p.x - W / 2;
    const dy = p.y - H / 2;
    return { x: cos * dx - sin * dy + RW / 2, y: sin * dx + cos * dy + RH / 2 };
  };
  const eyes = turn(eyeMid);
  const chin = turn(lm[8]!);
  const eyeChin = chin.y - eyes.y;
  if (eyeChin <= 0) return fail(['未能识别面部位置：请正对镜头，露出完整面部后重新拍摄'], measures);
  const headH = eyeChin * HEAD_PER_EYE_CHIN;
  const crown = chin.y - headH;
  const centreX = (eyes.x + chin.x) / 2;
  measures.headShare = Number((headH / RH).toFixed(3));

  // The background, sampled above the crown and beside the head (above the chin).
  const halfHead = headH * 0.62;
  // Sampled on the detector's copy (the same picture, fewer pixels): positions scaled back.
  const onSmall = (pick: (p: Point) => boolean) => (x: number, y: number) => pick(turn({ x: x / scale, y: y / scale }));
  const original = sampleColor(
    small,
    sw,
    sh,
    onSmall((p) => {
      return p.y < crown - headH * 0.04 || (p.y < chin.y && Math.abs(p.x - centreX) > halfHead);
    }),
    1,
  );
  const bgTarget = BACKGROUNDS[rule.color] ?? BACKGROUNDS[1]!;
  let bgMatches = false;
  if (original) {
    const nearest = nearestBackground(original.median);
    measures.background = `${original.median.join(',')}±${original.spread.toFixed(0)}`;
    bgMatches = nearest.color === rule.color && nearest.distance < 75 && original.spread < 8;
    if (original.spread > 16) problems.push(`背景不是纯色：请在纯${colorName(rule.color)}或浅色墙面前重新拍摄`);
  }

  // Framing: crop to the rule's aspect ratio around the head.
  const cropH = headH / HEAD_SHARE;
  const cropW = (cropH * rule.width) / rule.height;
  const cropTop = crown - CROWN_MARGIN * cropH;
  const cropLeft = centreX - cropW / 2;
  const pad = {
    top: Math.max(0, -cropTop),
    left: Math.max(0, -cropLeft),
    right: Math.max(0, cropLeft + cropW - RW),
    bottom: Math.max(0, cropTop + cropH - RH),
  };
  if (chin.y > RH || pad.top > cropH * 0.16 || pad.left > cropW * 0.2 || pad.right > cropW * 0.2 || pad.bottom > cropH * 0.06) {
    problems.push('头部离照片边缘太近，无法裁剪出完整的头肩：请在头顶和两肩留出空间后重新拍摄');
  }
  measures.cropHeight = Math.round(cropH);
  if (cropH < req.height * 0.75) {
    problems.push(
      `分辨率不足：照片中头部约 ${Math.round(headH)} 像素高，按 300 dpi 打印 ${rule.width}×${rule.height} mm 需要头部至少约 ${Math.round(req.height * HEAD_SHARE * 0.75)} 像素（整张照片 ${req.width}×${req.height} 像素）`,
    );
  }

  // Light: face brightness and the difference between its two halves (a side shadow).
  const faceLight = sampleColor(
    small,
    sw,
    sh,
    onSmall((p) => Math.abs(p.x - centreX) < eyeSpan * 0.9 && p.y > eyes.y - eyeSpan * 0.3 && p.y < chin.y - eyeChin * 0.15),
    1,
  );
  const halfLight = (side: -1 | 1) =>
    sampleColor(
      small,
      sw,
      sh,
      onSmall((p) => {
        const dx = (p.x - centreX) * side;
        return dx > eyeSpan * 0.15 && dx < eyeSpan * 0.8 && p.y > eyes.y && p.y < chin.y - eyeChin * 0.25;
      }),
      1,
    );
  const luma = (c: readonly number[]) => 0.299 * c[0]! + 0.587 * c[1]! + 0.114 * c[2]!;
  let gain = 1;
  if (faceLight) {
    const light = luma(faceLight.median);
    measures.faceLight = Math.round(light);
    if (light < 25) problems.push('照片过暗，面部细节无法辨认：请在光线充足处重新拍摄');
    // Underexposed: a dark face in a dark picture (a dark-skinned face before a light wall is not).
    else if (light < 95 && overall < 110) gain = Math.min(2.6, 135 / light);
    else if (light > 225) problems.push('照片曝光过度，面部细节无法辨认：请避免强光直射');
    else if (light > 205) gain = 175 / light;
  }
  const leftHalf = halfLight(-1);
  const rightHalf = halfLight(1);
  if (leftHalf && rightHalf) {
    const a = luma(leftHalf.median);
    const b = luma(rightHalf.median);
    const contrast = Math.abs(a - b) / Math.max(a, b, 1);
    measures.shadow = Number(contrast.toFixed(3));
    if (contrast > 0.38) problems.push(`面部有明显阴影（左右亮度相差 ${Math.round(contrast * 100)}%）：请在光线均匀处重新拍摄`);
  }

  if (problems.length > 0) return fail(problems, measures);

  // Compliant as uploaded?
  const headShare = headH / RH;
  const marginShare = crown / RH;
  const aspectOk = Math.abs(W / H - rule.width / rule.height) / (rule.width / rule.height) < 0.04;
  const framingOk =
    angle === 0 &&
    aspectOk &&
    headShare >= HEAD_SHARE_OK[0] &&
    headShare <= HEAD_SHARE_OK[1] &&
    marginShare >= CROWN_MARGIN_OK[0] &&
    marginShare <= CROWN_MARGIN_OK[1] &&
    Math.abs(centreX - RW / 2) / RW < 0.07;
  const bigEnough = H >= req.height * 0.95;
  if (framingOk && bgMatches && gain === 1 && bigEnough) return { verdict: 'pass', problems: [], fixes: [], processed: null, measures };

  // The processed photo.
  const fill = original ? { r: original.median[0], g: original.median[1], b: original.median[2] } : { r: 255, g: 255, b: 255 };
  let pipeline = sharp(decoded.data, raw);
  if (angle !== 0) {
    pipeline = sharp(await pipeline.rotate(angle, { background: fill }).raw().toBuffer(), { raw: { width: RW, height: RH, channels: 3 } });
    fixes.push(`旋转校正 ${Math.abs(roll).toFixed(0)}°，双眼保持水平`);
  }
  const padded = {
    top: Math.ceil(pad.top),
    left: Math.ceil(pad.left),
    right: Math.ceil(pad.right),
    bottom: Math.ceil(pad.bottom),
  };
  if (padded.top + padded.left + padded.right + padded.bottom > 0) {
    pipeline = sharp(
      await pipeline
        .extend({ ...padded, background: fill })
        .raw()
        .toBuffer(),
      {
        raw: { width: RW + padded.left + padded.right, height: RH + padded.top + padded.bottom, channels: 3 },
      },
    );
  }
  const extract = {
    left: Math.max(0, Math.round(cropLeft + padded.left)),
    top: Math.max(0, Math.round(cropTop + padded.top)),
    width: Math.round(cropW),
    height: Math.round(cropH),
  };
  extract.width = Math.min(extract.width, RW + padded.left + padded.right - extract.left);
  extract.height = Math.min(extract.height, RH + padded.top + padded.bottom - extract.top);
  const out = await pipeline.extract(extract).resize(req.width, req.height, { fit: 'fill' }).raw().toBuffer();
  if (!framingOk || !aspectOk) fixes.push(`裁剪为 ${rule.width}×${rule.height} mm，头部居中、约占照片高度 ${Math.round(HEAD_SHARE * 100)}%`);
  if (!bigEnough) fixes.push(`放大到 300 dpi 打印所需的 ${req.width}×${req.height} 像素`);
  else if (!framingOk || W !== req.width) fixes.push(`按 300 dpi 缩放为 ${req.width}×${req.height} 像素`);

  // Positions in the output.
  const k = req.height / cropH;
  const outEyes = { x: (eyes.x - cropLeft) * k, y: (eyes.y - cropTop) * k };
  const outChin = { x: (chin.x - cropLeft) * k, y: (chin.y - cropTop) * k };
  const outHead = headH * k;
  if (gain !== 1) {
    for (let i = 0; i < out.length; i++) out[i] = Math.min(255, Math.round(out[i]! * gain));
    fixes.push(gain > 1 ? '提高亮度（面部偏暗）' : '降低亮度（曝光偏强）');
  }
  if (!bgMatches) {
    replaceBackground(out, req.width, req.height, bgTarget, {
      x: (outEyes.x + outChin.x) / 2,
      y: outChin.y - outHead / 2,
      rx: outHead * 0.36,
      ry: outHead * 0.5,
    });
    fixes.push(`背景替换为${colorName(rule.color)}`);
  }
  const processed = await sharp(out, { raw: { width: req.width, height: req.height, channels: 3 } })
    .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
    .withMetadata({ density: DPI })
    .toBuffer();
  return { verdict: 'fixed', problems: [], fixes, processed, measures };
}

/**
 * Replaces the background of an RGB image in place: the region connected to
 * the top and side borders whose colour is near the border's, never inside
 * the head ellipse, blended over two pixels.
 */
function replaceBackground(rgb: Buffer, width: number, height: number, target: readonly number[], head: { x: number; y: number; rx: number; ry: number }) {
  const border = sampleColor(rgb, width, height, (x, y) => y < height * 0.06 || ((x < width * 0.06 || x > width * 0.94) && y < height * 0.55));
  if (!border) return;
  const ref = border.median;
  const limit = Math.max(38, border.spread * 3.2);
  // The head ellipse and the neck below it are never background.
  const inHead = (x: number, y: number) =>
    ((x - head.x) / head.rx) ** 2 + ((y - head.y) / head.ry) ** 2 < 1 || (y > head.y + head.ry * 0.7 && Math.abs(x - head.x) < head.rx * 0.4);
  const mask = new Uint8Array(width * height);
  const stack: number[] = [];
  const near = (i: number) => colorDistance([rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!], ref) < limit;
  const seed = (x: number, y: number) => {
    const i = y * width + x;
    if (!mask[i] && near(i) && !inHead(x, y)) {
      mask[i] = 1;
      stack.push(i);
    }
  };
  for (let x = 0; x < width; x++) seed(x, 0);
  for (let y = 0; y < height; y++) {
    seed(0, y);
    seed(width - 1, y);
  }
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % width;
    const y = (i - x) / width;
    if (x > 0) seed(x - 1, y);
    if (x < width - 1) seed(x + 1, y);
    if (y > 0) seed(x, y - 1);
    if (y < height - 1) seed(x, y + 1);
  }
  // Feathered edge: the share of background among the 5×5 neighbours.
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let n = 0;
      let bg = 0;
      for (let dy = -2; dy <= 2; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -2; dx <= 2; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          n++;
          bg += mask[yy * width + xx]!;
        }
      }
      if (bg === 0) continue;
      const a = mask[y * width + x] ? 1 : (bg / n) * 0.8;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) rgb[i + c] = Math.round(rgb[i + c]! * (1 - a) + target[c]! * a);
    }
  }
}
