// POST /www/passport/passport_read (issue 28): a generated passport page is
// read into its fields; a wrong check digit, a file that is not a JPEG or PNG
// (text, a PDF), an empty, corrupt, oversize, too large or too small image
// are refused in the envelope with their own code and a Chinese msg. Two OCR
// runs in all (the machine is small).
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/error-codes.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { multipart } from '../../test-support/fixtures/material.ts';
import { passportImage, type PassportPerson } from '../../test-support/passport-image.ts';
import { createTestApp, signedHeaders, type TestApp } from '../../test-support/test-app.ts';

const PATH = '/www/passport/passport_read';
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.now = Date.parse('2026-11-28T04:00:00Z');
  const account = await t.createAccount();
  token = await t.login(account.account, account.password);
});
afterAll(async () => {
  await t?.close();
});

async function read(content: Buffer, options: { token?: string; name?: string; type?: string } = {}) {
  const { body, contentType } = multipart({}, { content, name: options.name ?? 'passport.jpg', type: options.type ?? 'image/jpeg' });
  const response = await t.app.inject({
    method: 'POST',
    url: PATH,
    headers: signedHeaders(t.clock, { token: 'token' in options ? options.token : token, headers: { 'content-type': contentType } }),
    payload: body,
  });
  return { status: response.statusCode, answer: response.json() as { ret: number; msg: string; body: any } };
}

/** A PNG whose header says `width` × `height` (the pixels are never there): refused from the header alone. */
function pngClaiming(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PERSON: PassportPerson = {
  surname: 'LI',
  given_names: 'XIAOHONG',
  passport_no: 'EA1234567',
  nationality: 'CHN',
  issuing_state: 'CHN',
  birth_date: '1988-02-29',
  sex: 'F',
  expiry_date: '2031-06-30',
};

describe(`passport read (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('reads a photographed passport page into its fields; the Chinese name is left to the customer', async () => {
    const { image } = await passportImage({ seed: 3, person: PERSON });
    const { status, answer } = await read(image);
    expect(status).toBe(200);
    expect(answer.ret).toBe(0);
    expect(answer.body).toEqual({
      fields: {
        surname: 'LI',
        given_names: 'XIAOHONG',
        passport_no: 'EA1234567',
        nationality: 'CHN',
        issuing_state: 'CHN',
        birth_date: '1988-02-29',
        sex: 'F',
        expiry_date: '2031-06-30',
      },
      chinese_passport: true,
      expired: false,
    });
  });

  it('refuses a zone whose check digit is wrong, with no field', async () => {
    const { image } = await passportImage({ seed: 4, person: PERSON, corruptCheckDigit: true });
    const { answer } = await read(image);
    expect(answer).toMatchObject({ ret: ErrorCode.PASSPORT_SCAN_CHECK_DIGIT, msg: '护照机读区校验不通过，请重新拍摄或手动填写' });
    expect(answer.body ?? null).toBeNull();
  });

  it('refuses what is not a JPEG or PNG by its content, whatever its name says: text, a PDF', async () => {
    for (const [content, name] of [
      [fixture('renamedText'), 'passport.jpg'],
      [fixture('pdf'), 'passport.pdf'],
    ] as const) {
      const { status, answer } = await read(content, { name });
      expect(status).toBe(200);
      expect(answer).toMatchObject({ ret: ErrorCode.PASSPORT_SCAN_FILE_TYPE, msg: '请上传护照资料页的照片或扫描图片（JPEG 或 PNG）' });
    }
  });

  it('refuses an empty file, a corrupt image, a file over 10 MB, a huge image and one too small to read', async () => {
    expect((await read(Buffer.alloc(0))).answer.ret).toBe(ErrorCode.PASSPORT_SCAN_EMPTY);
    const corrupt = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 7)]);
    expect((await read(corrupt)).answer.ret).toBe(ErrorCode.PASSPORT_SCAN_UNREADABLE_IMAGE);
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(10 * 1024 * 1024 + 10)]);
    const tooBig = await read(big);
    expect(tooBig.answer).toMatchObject({ ret: ErrorCode.PASSPORT_SCAN_TOO_LARGE, msg: '图片不能超过 10 MB' });
    const huge = await read(pngClaiming(30_000, 30_000), { name: 'huge.png', type: 'image/png' });
    expect(huge.answer).toMatchObject({ ret: ErrorCode.PASSPORT_SCAN_DIMENSIONS });
    const small = await sharp({ create: { width: 400, height: 250, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    expect((await read(small)).answer.ret).toBe(ErrorCode.PASSPORT_SCAN_TOO_SMALL);
  });

  it('refuses a page without a machine-readable zone as unreadable', async () => {
    const blank = await sharp({ create: { width: 1200, height: 850, channels: 3, background: '#e8eef2' } })
      .jpeg()
      .toBuffer();
    const { answer } = await read(blank);
    expect(answer).toMatchObject({ ret: ErrorCode.PASSPORT_SCAN_NOT_FOUND });
    expect(answer.msg).toMatch(/未能识别护照机读区/);
  });

  it('is for logged-in customers only', async () => {
    const { answer } = await read(Buffer.from('x'), { token: undefined });
    expect(answer.ret).toBe(ErrorCode.NOT_LOGGED_IN);
  });
});
