// npm run bench:mrz — the passport reader on generated data pages (issue 28):
// per-field accuracy, check-digit errors refused, seconds per scan.
//
// The pages come from server/test-support/passport-image.ts: a TD3 machine-
// readable zone in OCR-B (the public-domain outlines committed beside the
// reader), a fake visual zone, then skew (±4°), blur, sensor noise, uneven
// light, a dark table around the page and JPEG compression (quality 45–85).
// Every page is made anew from its seed; nothing is downloaded.
//
// BENCH_MRZ_PAGES (40) valid pages and BENCH_MRZ_BAD (10) pages whose document
// number check digit is wrong; BENCH_MRZ_OUT=dir keeps the images to look at.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ErrorCode } from '../common/error-codes.ts';
import { createPassportScanService } from '../server/modules/passport-scan/passport-scan.service.ts';
import { AppError } from '../server/platform/errors.ts';
import { passportImage } from '../server/test-support/passport-image.ts';

const PAGES = Number(process.env.BENCH_MRZ_PAGES ?? 40);
const BAD = Number(process.env.BENCH_MRZ_BAD ?? 10);
const OUT = process.env.BENCH_MRZ_OUT;
const FIELDS = ['surname', 'given_names', 'passport_no', 'nationality', 'birth_date', 'sex', 'expiry_date'] as const;

const now = () => Date.parse('2026-11-28T04:00:00Z');
const service = createPassportScanService({ now });
const source = (image: Buffer) => ({ fileName: 'passport.jpg', stream: Readable.from([image]), truncated: () => false });

if (OUT) mkdirSync(OUT, { recursive: true });
const right = Object.fromEntries(FIELDS.map((field) => [field, 0])) as Record<(typeof FIELDS)[number], number>;
const seconds: number[] = [];
const misses: string[] = [];
let read = 0;

// A first scan warms the reader up (module code, templates); it is timed apart.
const warm = await passportImage({ seed: 9999 });
let started = performance.now();
await service.read(source(warm.image)).catch(() => undefined);
const firstScan = (performance.now() - started) / 1000;

for (let seed = 1; seed <= PAGES; seed += 1) {
  const { image, person } = await passportImage({ seed });
  if (OUT) writeFileSync(join(OUT, `page-${seed}.jpg`), image);
  started = performance.now();
  try {
    const result = await service.read(source(image));
    seconds.push((performance.now() - started) / 1000);
    read += 1;
    const expected = { ...person, surname: person.surname, given_names: person.given_names.replace(/\s+/g, ' ') };
    for (const field of FIELDS) {
      if (String(result.fields[field]) === String(expected[field])) right[field] += 1;
      else misses.push(`page ${seed} ${field}: read ${JSON.stringify(result.fields[field])}, is ${JSON.stringify(expected[field])}`);
    }
  } catch (error) {
    seconds.push((performance.now() - started) / 1000);
    misses.push(`page ${seed}: refused ${error instanceof AppError ? `${error.ret} ${error.message}` : String(error)}`);
  }
}

let refused = 0;
let refusedAsCheckDigit = 0;
const badSeconds: number[] = [];
for (let seed = 1001; seed < 1001 + BAD; seed += 1) {
  const { image } = await passportImage({ seed, corruptCheckDigit: true });
  if (OUT) writeFileSync(join(OUT, `bad-check-digit-${seed}.jpg`), image);
  started = performance.now();
  try {
    await service.read(source(image));
    misses.push(`bad page ${seed}: ACCEPTED with a wrong check digit`);
  } catch (error) {
    refused += 1;
    if (error instanceof AppError && error.ret === ErrorCode.PASSPORT_SCAN_CHECK_DIGIT) refusedAsCheckDigit += 1;
  }
  badSeconds.push((performance.now() - started) / 1000);
}
await service.close();

const sorted = [...seconds].sort((a, b) => a - b);
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
const total = FIELDS.reduce((sum, field) => sum + right[field], 0);
console.log(`passport pages: ${PAGES} generated (skew ±4°, blur, noise, JPEG 45–85), ${read} read, ${PAGES - read} refused`);
console.log('per-field accuracy (of all pages):');
for (const field of FIELDS) console.log(`  ${field.padEnd(12)} ${String(right[field]).padStart(3)}/${PAGES}  ${pct(right[field], PAGES)}`);
console.log(`  all fields   ${pct(total, PAGES * FIELDS.length)}  (goal ≥ 95%)`);
console.log(
  `wrong check digit: ${refused}/${BAD} refused (${refusedAsCheckDigit} as ${ErrorCode.PASSPORT_SCAN_CHECK_DIGIT}); ${BAD - refused} accepted (goal 0)`,
);
console.log(
  `seconds per scan: mean ${(seconds.reduce((a, b) => a + b, 0) / seconds.length).toFixed(2)}, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}, ` +
    `p95 ${sorted[Math.floor(sorted.length * 0.95)]!.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)} (goal ≤ 3 s); first scan ${firstScan.toFixed(2)} s; ` +
    `refused pages mean ${(badSeconds.reduce((a, b) => a + b, 0) / Math.max(1, badSeconds.length)).toFixed(2)} s`,
);
if (misses.length > 0) console.log(`misses:\n  ${misses.join('\n  ')}`);
