// npm run bench:files — serving a stored scan encrypted at rest against the
// same scan unencrypted (decision 0043), side by side in one run. One Fastify
// server, the real file route (serve.ts) twice: once over the encrypted
// storage, once over the raw local storage, both on the same folder; the file
// is a 2 MB scan (BENCH_FILE_BYTES). Rounds alternate between the two so that
// both see the same machine; each round is BENCH_REQUESTS GETs over real
// sockets, BENCH_CONCURRENCY at a time. Prints MB/s of each, and the ratio
// (the goal: encrypted ≥ 0.8 × plain), of the totals and the median pair's. Checks that every answer is the file.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { fileKeyring } from '../server/modules/stored-file/file-keys.ts';
import { registerFileRoutes } from '../server/modules/stored-file/serve.ts';
import { newStorageKey, type FileStorage } from '../server/modules/stored-file/storage.ts';
import { createEncryptedStorage } from '../server/modules/stored-file/storage-encrypted.ts';
import { createLocalStorage } from '../server/modules/stored-file/storage-local.ts';

const FILE_BYTES = Number(process.env.BENCH_FILE_BYTES ?? 2 * 1024 * 1024);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'visa-bench-files-'));
  const raw = createLocalStorage(dir);
  const encrypted = createEncryptedStorage(raw, fileKeyring(randomBytes(32)));
  // A scan: a PDF's first bytes (as every stored file is checked by type), then incompressible bytes.
  const scan = randomBytes(FILE_BYTES);
  Buffer.from('%PDF-1.7\n').copy(scan);
  const sha256 = createHash('sha256').update(scan).digest('hex');

  const app = Fastify({ logger: false });
  const sides: Array<{ name: string; path: string; storage: FileStorage }> = [
    { name: 'plain', path: '/bench/plain/', storage: raw },
    { name: 'encrypted', path: '/bench/encrypted/', storage: encrypted },
  ];
  for (const side of sides) {
    const key = newStorageKey();
    await side.storage.put(key, Readable.from([scan]), { contentType: 'application/pdf' });
    const row = {
      file_id: 1,
      user_order_id: 1,
      enterprise_id: 1,
      storage_key: key,
      file_name: 'scan.pdf',
      content_type: 'application/pdf',
      size_bytes: FILE_BYTES,
      sha256,
    };
    const files = {
      kind: { customerPath: side.path, adminPath: `/admin${side.path}`, customerCopy: { etag: false, framed: true } },
      fileFor: async () => row,
      open: (file: { storage_key: string }, range?: { start: number; end: number }) => side.storage.get(file.storage_key, range),
    };
    registerFileRoutes(app, files as never, { customer: async () => ({ enterpriseId: 1 }), operator: async () => null });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  function fetchOnce(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: `${path}1`, agent, headers: { 'x-token': 'bench' } }, (response) => {
        const hash = createHash('sha256');
        response.on('data', (chunk: Buffer) => hash.update(chunk));
        response.on('end', () => {
          if (response.statusCode !== 200 || hash.digest('hex') !== sha256) reject(new Error(`${path}: ${response.statusCode}, not the file`));
          else resolve();
        });
        response.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  }

  async function round(path: string): Promise<number> {
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next += 1;
          await fetchOnce(path);
        }
      }),
    );
    return Number(process.hrtime.bigint() - started) / 1e9;
  }

  // Warm-up of both sides (JIT, page cache, sockets).
  for (const side of sides) for (let i = 0; i < 10; i += 1) await fetchOnce(side.path);
  const seconds: Record<string, number> = { plain: 0, encrypted: 0 };
  // Each round is a pair (one plain burst, one encrypted) close together in time, so that
  // whatever else the machine does falls on both; the median pair's ratio is printed beside
  // the ratio of the totals.
  const pairRatios: number[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const pair: Record<string, number> = {};
    // Alternate which side goes first, so neither always follows the other.
    for (const side of r % 2 === 0 ? sides : [...sides].reverse()) pair[side.name] = await round(side.path);
    seconds.plain! += pair.plain!;
    seconds.encrypted! += pair.encrypted!;
    pairRatios.push(pair.plain! / pair.encrypted!);
  }
  pairRatios.sort((a, b) => a - b);
  const medianPair = pairRatios[Math.floor(pairRatios.length / 2)]!;
  const megabytes = (ROUNDS * REQUESTS * FILE_BYTES) / (1024 * 1024);
  const throughput = { plain: megabytes / seconds.plain!, encrypted: megabytes / seconds.encrypted! };
  const perSecond = (name: 'plain' | 'encrypted') => ((ROUNDS * REQUESTS) / seconds[name]!).toFixed(1);
  console.log(`bench:files — a ${(FILE_BYTES / 1024 / 1024).toFixed(1)} MB scan, ${ROUNDS} × ${REQUESTS} GETs per side, ${CONCURRENCY} at a time`);
  console.log(`  plain      ${throughput.plain.toFixed(1).padStart(8)} MB/s  (${perSecond('plain')} files/s)`);
  console.log(`  encrypted  ${throughput.encrypted.toFixed(1).padStart(8)} MB/s  (${perSecond('encrypted')} files/s)`);
  const ratio = throughput.encrypted / throughput.plain;
  console.log(
    `  ratio      ${ratio.toFixed(2)} of the totals, ${medianPair.toFixed(2)} the median of ${ROUNDS} pairs (goal ≥ 0.80: ${medianPair >= 0.8 ? 'met' : 'NOT met'})`,
  );
  agent.destroy();
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
