// Reading a passport photo or scan into the order form's fields (issue 28
// part 2). The upload is checked by content (JPEG or PNG by its first bytes),
// size (10 MB, counted as it streams) and dimensions (from the header, before
// decoding), held in memory only for the read and never stored. Scans run one
// at a time on this instance; a short queue waits, more are refused (2439).
import sharp from 'sharp';
import type { PassportReadResult } from '../../../common/contracts/passport-scan.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { chinaDate } from '../../../common/order.ts';
import { AppError } from '../../platform/errors.ts';
import type { UploadSource } from '../stored-file/stored-files.ts';
import { inspectUpload } from '../stored-file/upload-stream.ts';
import { type MrzReadResult, readMrzText } from './mrz-read.ts';
import { createMrzOcr, type MrzOcr } from './ocr.ts';

export const PASSPORT_SCAN_MAX_BYTES = 10 * 1024 * 1024;
/** Larger photos are refused before decoding (a decompression bomb is a small file). */
export const PASSPORT_SCAN_MAX_SIDE = 8000;
export const PASSPORT_SCAN_MAX_PIXELS = 40_000_000;
const MIN_WIDTH = 600;
const MIN_HEIGHT = 300;
/** Scans waiting beyond the one being read. */
const MAX_WAITING = 4;

export interface PassportScanOptions {
  now: () => number;
  /** The OCR (tests may share one); by default this service starts its own and closes it in close(). */
  ocr?: MrzOcr;
  log?: { info(object: Record<string, unknown>, message: string): void };
}

export function createPassportScanService({ now, ocr: given, log }: PassportScanOptions) {
  const ocr = given ?? createMrzOcr();
  let running: Promise<unknown> = Promise.resolve();
  let waiting = 0;

  /** One scan at a time: the OCR worker is single-threaded and the machine small. */
  function queued<T>(work: () => Promise<T>): Promise<T> {
    if (waiting > MAX_WAITING) throw new AppError(ErrorCode.PASSPORT_SCAN_BUSY);
    waiting += 1;
    const result = running.then(work, work);
    running = result.catch(() => undefined).finally(() => (waiting -= 1));
    return result;
  }

  async function readUpload(file: UploadSource): Promise<Buffer> {
    const upload = await inspectUpload(file.stream, { maxBytes: PASSPORT_SCAN_MAX_BYTES, tooLarge: () => new AppError(ErrorCode.PASSPORT_SCAN_TOO_LARGE) });
    if (upload.empty) throw new AppError(ErrorCode.PASSPORT_SCAN_EMPTY);
    if (upload.contentType !== 'image/jpeg' && upload.contentType !== 'image/png') {
      await upload.discard();
      throw new AppError(ErrorCode.PASSPORT_SCAN_FILE_TYPE);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of upload.body) chunks.push(chunk as Buffer);
    if (file.truncated()) throw new AppError(ErrorCode.PASSPORT_SCAN_TOO_LARGE);
    return Buffer.concat(chunks);
  }

  async function checkDimensions(image: Buffer): Promise<void> {
    let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
    try {
      meta = await sharp(image, { limitInputPixels: false }).metadata();
    } catch {
      throw new AppError(ErrorCode.PASSPORT_SCAN_UNREADABLE_IMAGE);
    }
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    if (width > PASSPORT_SCAN_MAX_SIDE || height > PASSPORT_SCAN_MAX_SIDE || width * height > PASSPORT_SCAN_MAX_PIXELS) {
      throw new AppError(ErrorCode.PASSPORT_SCAN_DIMENSIONS);
    }
    // A photo taken upright or sideways: the longer side counts as the width.
    if (Math.max(width, height) < MIN_WIDTH || Math.min(width, height) < MIN_HEIGHT) throw new AppError(ErrorCode.PASSPORT_SCAN_TOO_SMALL);
  }

  return {
    /** The fields of the passport in the uploaded photo, or the refusal. */
    async read(file: UploadSource): Promise<PassportReadResult> {
      const image = await readUpload(file);
      await checkDimensions(image);
      const today = chinaDate(now());
      const started = Date.now();
      const outcome = await queued(async () => {
        const verdicts: MrzReadResult[] = [];
        let read;
        try {
          read = await ocr.read(image, (text) => {
            const verdict = readMrzText(text, today);
            verdicts.push(verdict);
            return verdict.ok;
          });
        } catch {
          // sharp could not decode what its header promised.
          throw new AppError(ErrorCode.PASSPORT_SCAN_UNREADABLE_IMAGE);
        }
        return { verdicts, engine: read.engine };
      });
      const ok = outcome.verdicts.find((verdict) => verdict.ok);
      // The reader's fields only: no number, name or date goes to the log.
      log?.info({ ms: Date.now() - started, engine: outcome.engine, ok: Boolean(ok) }, 'passport read');
      if (ok?.ok) return { fields: ok.fields, chinese_passport: ok.fields.nationality === 'CHN', expired: ok.fields.expiry_date < today };
      if (outcome.verdicts.some((verdict) => !verdict.ok && verdict.reason === 'check_digit')) throw new AppError(ErrorCode.PASSPORT_SCAN_CHECK_DIGIT);
      throw new AppError(ErrorCode.PASSPORT_SCAN_NOT_FOUND);
    },
    close: () => (given ? Promise.resolve() : ocr.close()),
  };
}

export type PassportScanService = ReturnType<typeof createPassportScanService>;
