// The QR code image is read back the way a phone would: JPEG decoded, then
// scanned with jsQR.
import jpeg from 'jpeg-js';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { QRCODE_PAGE, qrcodeScene } from '../../../common/catalogue.ts';
import { QRCODE_SIZE } from '../../../common/constants.ts';
import { miniProgramLink, QR_MAX_SIZE, renderQrCodeJpegBase64 } from './qrcode.ts';

const BASE = 'https://m.yiqiantong.example/mp/';

function scan(base64: string) {
  const bytes = Buffer.from(base64, 'base64');
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]); // a JPEG
  const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
  const code = jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength), image.width, image.height);
  return { image, text: code?.data ?? null };
}

describe('miniProgramLink', () => {
  it('joins base and page with one slash and encodes the scene', () => {
    expect(miniProgramLink(BASE, QRCODE_PAGE, qrcodeScene(42))).toBe(
      'https://m.yiqiantong.example/mp/pages/visa/visa-detail/visa-detail?scene=v%3D42%26u%3Dofficial',
    );
    expect(miniProgramLink('https://m.example/mp', '/pages/a', 'x y')).toBe('https://m.example/mp/pages/a?scene=x%20y');
  });
});

describe('renderQrCodeJpegBase64', () => {
  it('draws a 300×300 JPEG that scans back to the mini-program link', () => {
    const link = miniProgramLink(BASE, QRCODE_PAGE, qrcodeScene(42));
    const base64 = renderQrCodeJpegBase64(link, QRCODE_SIZE);
    expect(base64).toMatch(/^[A-Za-z0-9+/]+=*$/); // plain base64, no data: prefix
    const { image, text } = scan(base64);
    expect(image.width).toBe(300);
    expect(image.height).toBe(300);
    expect(text).toBe(link);
  });

  it('is black on white with a white quiet zone', () => {
    const { image } = scan(renderQrCodeJpegBase64('hello', 300));
    const luma = (x: number, y: number) => image.data[(y * image.width + x) * 4]!;
    // Corners and borders are white (allowing for JPEG noise)…
    for (const [x, y] of [
      [0, 0],
      [299, 0],
      [0, 299],
      [299, 299],
      [150, 2],
      [2, 150],
    ] as const)
      expect(luma(x, y)).toBeGreaterThan(235);
    // …and the image has real black modules.
    let dark = 0;
    for (let i = 0; i < image.data.length; i += 4) if (image.data[i]! < 40) dark += 1;
    expect(dark / (300 * 300)).toBeGreaterThan(0.15);
  });

  it('scans at other sizes and with Chinese text', () => {
    for (const size of [120, 237, 512]) {
      const text = `https://example.com/x?size=${size}&name=易签通`;
      const { image, text: read } = scan(renderQrCodeJpegBase64(text, size));
      expect([image.width, image.height]).toEqual([size, size]);
      expect(read).toBe(text);
    }
  });

  it('refuses sizes it cannot draw', () => {
    expect(() => renderQrCodeJpegBase64('hello', 10)).toThrow(RangeError);
    expect(() => renderQrCodeJpegBase64('hello', 300.5)).toThrow(RangeError);
    expect(() => renderQrCodeJpegBase64('hello', QR_MAX_SIZE + 1)).toThrow(RangeError);
  });
});
