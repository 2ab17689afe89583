// The two storages. Local disk: complete-or-nothing writes, random keys only.
// S3: no real bucket can be reached here, so the requests are checked against
// a tiny local HTTP server that records them — URL (path-style), headers, the
// payload hash, and the SigV4 signature recomputed independently with
// node:crypto from what arrived. This proves the requests are well formed and
// correctly signed; it does not prove a given provider accepts them.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test-support/test-app.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { createLocalStorage } from './storage-local.ts';
import { createS3Storage, objectUrl } from './storage-s3.ts';
import { CHUNK_BYTES, isEncrypted } from './envelope.ts';
import { fileKeyring } from './file-keys.ts';
import { createEncryptedStorage } from './storage-encrypted.ts';
import { createFileStorage } from './open-storage.ts';
import { newStorageKey, STORAGE_KEY_PATTERN } from './storage.ts';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream that delivers some bytes, then fails (a size limit, a client gone). */
function failingStream(): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.alloc(64 * 1024, 1);
      throw new Error('client went away');
    })(),
  );
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? (entry as any).path, entry.name));
}

describe('storage keys', () => {
  it('are random, sharded and never contain anything from the client', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newStorageKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(STORAGE_KEY_PATTERN);
      expect(key.slice(10, 12)).toBe(key.slice(13, 15));
    }
  });

  it('chooses S3 when S3_BUCKET is set, and wants its keys then', () => {
    expect(createFileStorage(testConfig({ UPLOAD_DIR: '/tmp/x' })).kind).toBe('local');
    expect(createFileStorage(testConfig({ S3_BUCKET: 'visa', S3_ENDPOINT: 'http://127.0.0.1:9', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' })).kind).toBe(
      's3',
    );
    expect(() => createFileStorage(testConfig({ S3_BUCKET: 'visa' }))).toThrow(/S3_ACCESS_KEY_ID/);
  });
});

describe('local disk storage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'visa-storage-'));
  const storage = createLocalStorage(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores, reads and deletes; a missing object is null and deleting it again is fine', async () => {
    const key = newStorageKey();
    await storage.put(key, Readable.from([fixture('jpeg')]), { contentType: 'image/jpeg' });
    const stored = await storage.get(key);
    expect(stored!.size).toBe(fixture('jpeg').length);
    expect((await readAll(stored!.body)).equals(fixture('jpeg'))).toBe(true);
    expect(allFiles(dir)).toEqual([join(dir, key)]);
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
  });

  it('leaves nothing behind when the stream fails half-way (no partial file, nothing under the key)', async () => {
    const key = newStorageKey();
    await expect(storage.put(key, failingStream(), { contentType: 'image/jpeg' })).rejects.toThrow('client went away');
    expect(await storage.get(key)).toBeNull();
    expect(allFiles(dir)).toEqual([]);
  });

  it('refuses keys it did not make (no path tricks)', async () => {
    for (const key of ['../etc/passwd', 'materials/ab/../../x', '/abs/path', 'materials/ab/ABC']) {
      await expect(storage.get(key)).rejects.toThrow(/invalid storage key/);
    }
  });
});

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

describe('S3-compatible storage (against a local recording server)', () => {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'cn-east-1' };
  const objects = new Map<string, Buffer>();
  const requests: Recorded[] = [];
  let refuse = false;
  let server: Server;
  let endpoint: string;
  const spoolDir = mkdtempSync(join(tmpdir(), 'visa-spool-'));

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      requests.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      if (refuse) {
        response.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
        return;
      }
      if (request.method === 'PUT') {
        objects.set(request.url!, body);
        response.writeHead(200, { etag: '"x"' }).end();
      } else if (request.method === 'GET') {
        const found = objects.get(request.url!);
        if (!found) response.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
        else {
          // A Range GET as S3 documents it (GetObject, RFC 9110): 206 with Content-Range, the end
          // clamped to the object's; a start past the end is 416.
          const range = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers.range ?? ''));
          if (!range) response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(found.length) }).end(found);
          else if (Number(range[1]) >= found.length) response.writeHead(416, { 'content-range': `bytes */${found.length}` }).end();
          else {
            const start = Number(range[1]);
            const end = Math.min(Number(range[2]), found.length - 1);
            response
              .writeHead(206, { 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${found.length}` })
              .end(found.subarray(start, end + 1));
          }
        }
      } else if (request.method === 'DELETE') {
        objects.delete(request.url!);
        response.writeHead(204).end();
      } else response.writeHead(405).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(spoolDir, { recursive: true, force: true });
  });

  const storage = () => createS3Storage({ ...credentials, bucket: 'visa-materials', endpoint: `${endpoint}/`, spoolDir });

  /** SigV4 recomputed from the request as received, independently of aws4fetch. */
  function expectValidSignature(request: Recorded) {
    const authorization = String(request.headers.authorization);
    const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
    expect(match, authorization).not.toBeNull();
    const [, accessKey, day, region, signedHeaders, signature] = match!;
    expect(accessKey).toBe(credentials.accessKeyId);
    expect(region).toBe(credentials.region);
    const amzDate = String(request.headers['x-amz-date']);
    expect(amzDate.slice(0, 8)).toBe(day);
    expect(signedHeaders!.split(';')).toEqual(expect.arrayContaining(['host', 'x-amz-content-sha256', 'x-amz-date']));
    const [path, query = ''] = request.url.split('?');
    const canonical = [
      request.method,
      path,
      query,
      ...signedHeaders!.split(';').map((name) => `${name}:${String(request.headers[name]).trim()}`),
      '',
      signedHeaders,
      String(request.headers['x-amz-content-sha256']),
    ].join('\n');
    const scope = `${day}/${region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
    const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
    const signingKey = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day!), region!), 's3'), 'aws4_request');
    expect(createHmac('sha256', signingKey).update(toSign).digest('hex')).toBe(signature);
  }

  it('builds path-style object URLs on the endpoint', () => {
    const key = 'materials/ab/ab0123456789abcdef0123456789abcd';
    expect(objectUrl({ endpoint: 'http://127.0.0.1:9000/', bucket: 'visa-materials' }, key).toString()).toBe(`http://127.0.0.1:9000/visa-materials/${key}`);
    expect(objectUrl({ endpoint: 'https://s3.cn-east-1.example.com', bucket: 'b' }, key).toString()).toBe(`https://s3.cn-east-1.example.com/b/${key}`);
    expect(() => objectUrl({ endpoint: 'http://x', bucket: 'b' }, '../x')).toThrow();
  });

  it('PUTs with a known length and the real payload hash, signed; GETs and DELETEs signed too', async () => {
    const s3 = storage();
    const key = newStorageKey();
    const jpeg = fixture('jpeg');
    // Delivered in small chunks, as an upload arrives.
    const chunks = Array.from({ length: Math.ceil(jpeg.length / 1000) }, (_, i) => jpeg.subarray(i * 1000, (i + 1) * 1000));
    await s3.put(key, Readable.from(chunks), { contentType: 'image/jpeg' });
    const put = requests.at(-1)!;
    expect(put).toMatchObject({ method: 'PUT', url: `/visa-materials/${key}` });
    expect(put.body.equals(jpeg)).toBe(true);
    expect(put.headers).toMatchObject({
      'content-length': String(jpeg.length),
      'content-type': 'image/jpeg',
      'x-amz-content-sha256': createHash('sha256').update(jpeg).digest('hex'),
      host: new URL(endpoint).host,
    });
    expect(put.headers['transfer-encoding']).toBeUndefined();
    expectValidSignature(put);
    // The spooled copy is gone.
    expect(readdirSync(spoolDir)).toEqual([]);

    const got = await s3.get(key);
    expect(got!.size).toBe(jpeg.length);
    expect((await readAll(got!.body)).equals(jpeg)).toBe(true);
    const get = requests.at(-1)!;
    expect(get).toMatchObject({ method: 'GET', url: `/visa-materials/${key}` });
    expect(get.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    expectValidSignature(get);

    await s3.delete(key);
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', url: `/visa-materials/${key}` });
    expectValidSignature(requests.at(-1)!);
    expect(await s3.get(key)).toBeNull();
  });

  it('reads ranges with a signed Range header, and encrypted files by range through it (the interview video, PDFs)', async () => {
    const s3 = storage();
    const key = newStorageKey();
    const jpeg = fixture('jpeg');
    await s3.put(key, Readable.from([jpeg]), { contentType: 'image/jpeg' });
    const part = await s3.get(key, { start: 10, end: 99 });
    expect(part!.size).toBe(jpeg.length);
    expect((await readAll(part!.body)).equals(jpeg.subarray(10, 100))).toBe(true);
    const get = requests.at(-1)!;
    expect(get.headers.range).toBe('bytes=10-99');
    expectValidSignature(get);

    // Sealed in the bucket; a range is opened from the chunks it touches, read as a stream.
    const encrypted = createEncryptedStorage(s3, fileKeyring(randomBytes(32)));
    const bytes = Buffer.concat([jpeg.subarray(0, 16), randomBytes(2 * CHUNK_BYTES + 500)]);
    const sealedKey = newStorageKey();
    await encrypted.put(sealedKey, Readable.from([bytes]), { contentType: 'image/jpeg' });
    expect(isEncrypted(objects.get(`/visa-materials/${sealedKey}`)!)).toBe(true);
    for (const [start, end] of [
      [0, 99],
      [CHUNK_BYTES - 10, CHUNK_BYTES + 10],
      [2 * CHUNK_BYTES, 2 * CHUNK_BYTES + 10_000],
    ] as const) {
      const back = await encrypted.get(sealedKey, { start, end });
      expect(back!.size).toBe(bytes.length);
      expect((await readAll(back!.body)).equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    expect((await readAll((await encrypted.get(sealedKey))!.body)).equals(bytes)).toBe(true);
  });

  it('reports a refused PUT and a failed stream, and cleans its spool either way', async () => {
    const s3 = storage();
    refuse = true;
    try {
      await expect(s3.put(newStorageKey(), Readable.from([fixture('png')]), { contentType: 'image/png' })).rejects.toThrow(
        /answered 403: <Error><Code>SignatureDoesNotMatch/,
      );
      await expect(s3.delete(newStorageKey())).rejects.toThrow(/403/);
    } finally {
      refuse = false;
    }
    const before = requests.length;
    await expect(s3.put(newStorageKey(), failingStream(), { contentType: 'image/png' })).rejects.toThrow('client went away');
    // Nothing was sent for a stream that failed while spooling.
    expect(requests.length).toBe(before);
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});
