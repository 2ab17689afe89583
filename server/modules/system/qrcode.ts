// The mini-program QR code of qrcode_get (spec §7): a link to the mini-program
// page with its scene, drawn as a real QR code (error correction M, 4-module
// quiet zone) and returned as a base64 JPEG, black on white.
import jpeg from 'jpeg-js';
import QRCode from 'qrcode';

/** Quiet zone the QR standard asks for, in modules. */
export const QR_QUIET_ZONE_MODULES = 4;
/** Largest image drawn, pixels per side (about 16 MB of RGBA while encoding). */
export const QR_MAX_SIZE = 2048;
export const QR_JPEG_QUALITY = 90;

/** base + page joined by exactly one slash, with the scene as an encoded query parameter. */
export function miniProgramLink(base: string, page: string, scene: string): string {
  return `${base.replace(/\/+$/, '')}/${page.replace(/^\/+/, '')}?scene=${encodeURIComponent(scene)}`;
}

/**
 * A size×size JPEG (base64, no data: prefix) of text as a QR code. Modules are
 * drawn at a whole number of pixels each, centred, so the quiet zone is at
 * least 4 modules and every module is square. Throws a RangeError when size is
 * not an integer, is larger than QR_MAX_SIZE or too small for one pixel per
 * module, and qrcode's error when the text does not fit in a QR code.
 */
export function renderQrCodeJpegBase64(text: string, size: number): string {
  if (!Number.isInteger(size) || size > QR_MAX_SIZE) throw new RangeError(`size must be an integer up to ${QR_MAX_SIZE}, got ${size}`);
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = modules.size;
  const total = count + 2 * QR_QUIET_ZONE_MODULES;
  const scale = Math.floor(size / total);
  if (scale < 1) throw new RangeError(`size ${size} is too small for a ${count}-module QR code (needs ${total})`);
  const offset = Math.floor((size - count * scale) / 2);

  const data = Buffer.alloc(size * size * 4, 0xff); // white, opaque
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) {
      if (!modules.get(row, col)) continue;
      for (let y = offset + row * scale; y < offset + (row + 1) * scale; y += 1) {
        const start = (y * size + offset + col * scale) * 4;
        for (let x = 0; x < scale; x += 1) {
          const i = start + x * 4;
          data[i] = 0;
          data[i + 1] = 0;
          data[i + 2] = 0;
        }
      }
    }
  }
  return jpeg.encode({ width: size, height: size, data }, QR_JPEG_QUALITY).data.toString('base64');
}
