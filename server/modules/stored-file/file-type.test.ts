// Type detection by content, the upload meter and the file-name rules.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../tests/fixtures/index.ts';
import { cleanFileName, contentDisposition, downloadName, UNNAMED } from './file-name.ts';
import { detectContentType } from './file-type.ts';
import { inspectUpload } from './upload-stream.ts';

describe('detectContentType', () => {
  it('knows the fixtures by their first bytes, and nothing else', () => {
    expect(detectContentType(fixture('jpeg'))).toBe('image/jpeg');
    expect(detectContentType(fixture('photo'))).toBe('image/jpeg');
    expect(detectContentType(fixture('png'))).toBe('image/png');
    expect(detectContentType(fixture('pdf'))).toBe('application/pdf');
    expect(detectContentType(fixture('renamedText'))).toBeNull();
    for (const other of ['GIF89a', '<svg xmlns=', '<!DOCTYPE html>', 'PK\u0003\u0004', '\u0089PNG\r\n\u001a'])
      expect(detectContentType(Buffer.from(other, 'latin1'))).toBeNull();
    expect(detectContentType(Buffer.alloc(0))).toBeNull();
  });
});

describe('inspectUpload', () => {
  const chunked = (bytes: Buffer, size: number) =>
    Readable.from(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size)));
  const tooLarge = () => new Error('too large');

  it('sniffs across tiny chunks, then delivers every byte with its size and hash', async () => {
    const jpeg = fixture('jpeg');
    const upload = await inspectUpload(chunked(jpeg, 3), { maxBytes: 1 << 20, tooLarge });
    expect(upload).toMatchObject({ contentType: 'image/jpeg', empty: false });
    const out: Buffer[] = [];
    for await (const chunk of upload.body) out.push(chunk as Buffer);
    expect(Buffer.concat(out).equals(jpeg)).toBe(true);
    expect(upload.digest().size).toBe(jpeg.length);
  });

  it('fails the stream one byte past the limit; an empty source is empty', async () => {
    const upload = await inspectUpload(chunked(Buffer.alloc(1001, 0xff), 100), { maxBytes: 1000, tooLarge });
    await expect(async () => {
      for await (const _ of upload.body) void _;
    }).rejects.toThrow('too large');
    const exact = await inspectUpload(chunked(Buffer.alloc(1000, 0xff), 100), { maxBytes: 1000, tooLarge });
    for await (const _ of exact.body) void _;
    expect(exact.digest().size).toBe(1000);
    expect((await inspectUpload(Readable.from([]), { maxBytes: 10, tooLarge })).empty).toBe(true);
  });
});

describe('file names', () => {
  it('keep only a clean label of the client’s name', () => {
    expect(cleanFileName('C:\\Users\\王\\Desktop\\护照.jpg')).toBe('护照.jpg');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('bad\u0000name\u202egpj.exe')).toBe('badnamegpj.exe');
    // Whatever else the text rule refuses (common/contracts/text.ts): the Arabic letter mark, C1 controls, lone surrogates.
    expect(cleanFileName('a\u061Cb\u0085c\ud800d\udc00.pdf')).toBe('abcd.pdf');
    expect(cleanFileName('护照😀.jpg')).toBe('护照😀.jpg');
    expect(cleanFileName('...hidden')).toBe('hidden');
    expect(cleanFileName('  ')).toBe(UNNAMED);
    expect(cleanFileName(undefined)).toBe(UNNAMED);
    const long = cleanFileName(`${'很长'.repeat(80)}.pdf`);
    expect([...long].length).toBe(100);
    expect(long.endsWith('.pdf')).toBe(true);
  });

  it('are offered with the detected type’s extension, inline, ASCII fallback plus UTF-8', () => {
    expect(downloadName('scan.JPEG', 'image/jpeg')).toBe('scan.JPEG');
    expect(downloadName('scan.png', 'image/jpeg')).toBe('scan.png.jpg');
    expect(downloadName('cv.html', 'application/pdf')).toBe('cv.html.pdf');
    expect(contentDisposition('护照 首页.jpg', 'image/jpeg')).toBe(
      `inline; filename="__ __.jpg"; filename*=UTF-8''%E6%8A%A4%E7%85%A7%20%E9%A6%96%E9%A1%B5.jpg`,
    );
    expect(contentDisposition("it's (1).pdf", 'application/pdf')).toBe(`inline; filename="it_s _1_.pdf"; filename*=UTF-8''it%27s%20%281%29.pdf`);
  });
});
