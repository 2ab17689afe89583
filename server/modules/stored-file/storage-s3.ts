// Files in an S3-compatible bucket (AWS S3, MinIO, OSS/COS S3 endpoints),
// path-style: {endpoint}/{bucket}/{key}, signed with AWS Signature V4
// (aws4fetch). A PUT needs its length and, to sign the payload, its SHA-256
// up front, so the upload is first spooled to a temporary file (bounded
// memory, whatever the file size), then sent with both; the temporary file is
// removed either way.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AwsClient, AwsV4Signer } from 'aws4fetch';
import { assertStorageKey, type FileStorage, STORAGE_KEY_PATTERN } from './storage.ts';

export interface S3Options {
  bucket: string;
  /** e.g. http://127.0.0.1:9000 (MinIO) or https://s3.us-east-1.amazonaws.com */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where uploads are spooled before the PUT; the OS temp folder by default. */
  spoolDir?: string;
}

/** The object's URL, path-style; each key segment percent-encoded. */
export function objectUrl(options: Pick<S3Options, 'endpoint' | 'bucket'>, key: string): URL {
  assertStorageKey(key);
  const base = options.endpoint.replace(/\/+$/, '');
  const path = [options.bucket, ...key.split('/')].map(encodeURIComponent).join('/');
  return new URL(`${base}/${path}`);
}

async function errorText(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  return text.slice(0, 300);
}

export function createS3Storage(options: S3Options): FileStorage {
  const credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, service: 's3', region: options.region };
  const client = new AwsClient({ ...credentials, retries: 2 });

  /** Writes the stream to a private temporary file; its size and SHA-256. */
  async function spool(body: Readable): Promise<{ dir: string; path: string; size: number; sha256: string }> {
    const dir = await mkdtemp(join(options.spoolDir ?? tmpdir(), 'visa-s3-'));
    const path = join(dir, randomBytes(8).toString('hex'));
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      await pipeline(body, measure, createWriteStream(path, { mode: 0o600 }));
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    return { dir, path, size, sha256: hash.digest('hex') };
  }

  /** PUT with a known length (no chunked encoding, which S3 refuses without aws-chunked signing). */
  async function putFile(url: URL, path: string, headers: Headers): Promise<void> {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    await new Promise<void>((resolvePut, rejectPut) => {
      const request = send(url, { method: 'PUT', headers: Object.fromEntries(headers.entries()) }, (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          // Only the start of an error body is kept (for the log).
          if (kept < 1024) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolvePut();
          else rejectPut(new Error(`S3 PUT ${url.pathname} answered ${status}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`));
        });
        response.on('error', rejectPut);
      });
      request.on('error', rejectPut);
      pipeline(createReadStream(path), request).catch(rejectPut);
    });
  }

  return {
    kind: 's3',

    async put(key, body, meta) {
      const url = objectUrl(options, key);
      const spooled = await spool(body);
      try {
        const signed = await new AwsV4Signer({
          ...credentials,
          method: 'PUT',
          url: url.toString(),
          headers: {
            'content-type': meta.contentType,
            'content-length': String(spooled.size),
            // The real payload hash: the bucket refuses a body that does not match it.
            'x-amz-content-sha256': spooled.sha256,
          },
        }).sign();
        await putFile(url, spooled.path, signed.headers);
      } finally {
        await rm(spooled.dir, { recursive: true, force: true });
      }
    },

    async get(key, range) {
      const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
      const response = await client.fetch(objectUrl(options, key).toString(), { method: 'GET', headers });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok || !response.body) throw new Error(`S3 GET ${key} answered ${response.status}: ${await errorText(response)}`);
      // A range's answer (206) names the whole object's size in Content-Range: bytes a-b/size.
      const total = response.status === 206 ? /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] : response.headers.get('content-length');
      return { body: Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), size: total == null ? null : Number(total) };
    },

    async delete(key) {
      const response = await client.fetch(objectUrl(options, key).toString(), { method: 'DELETE' });
      // S3 answers 204 for a missing key too; some compatible stores say 404.
      if (!response.ok && response.status !== 404) throw new Error(`S3 DELETE ${key} answered ${response.status}: ${await errorText(response)}`);
      await response.body?.cancel();
    },

    async *keys() {
      // ListObjectsV2, a page of up to 1000 keys at a time.
      let token: string | null = null;
      do {
        const url = new URL(`${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}`);
        url.searchParams.set('list-type', '2');
        url.searchParams.set('prefix', 'materials/');
        if (token) url.searchParams.set('continuation-token', token);
        const response = await client.fetch(url.toString(), { method: 'GET' });
        if (!response.ok) throw new Error(`S3 LIST answered ${response.status}: ${await errorText(response)}`);
        const xml = await response.text();
        for (const match of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) {
          const key = xmlText(match[1]!);
          if (STORAGE_KEY_PATTERN.test(key)) yield key;
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
          ? xmlText(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '') || null
          : null;
      } while (token);
    },
  };
}

function xmlText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
