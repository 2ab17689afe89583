// The catalogue workbook in the back office (issue 26): a supervisor downloads
// the whole catalogue (the same workbook as `npm run catalogue:export`),
// uploads an edited one and sees what it would change — per sheet the rows
// added, changed and removed, or every bad row — and only an explicit 确认导入
// applies it, all or nothing (catalogue-io's importer). The confirmation
// carries the previewed file's sha256: what is imported is what was
// previewed. Every import is recorded: who, when, which file, what changed.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CATALOGUE_WORKBOOK_MAX_BYTES, type WorkbookPreview } from '../../../common/contracts/catalogue-admin.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { exportWorkbook, importWorkbook, previewWorkbook } from '../catalogue-io/catalogue-transfer.ts';
import type { UploadSource } from '../stored-file/stored-files.ts';

/** An xlsx is a zip package: its bytes start with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

interface Upload {
  bytes: Buffer;
  fileName: string;
  sha256: string;
}

/** The whole upload in memory (at most the limit), checked by its content, never by its name. */
async function readUpload(source: UploadSource): Promise<Upload> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source.stream) {
    size += chunk.length;
    if (size > CATALOGUE_WORKBOOK_MAX_BYTES) throw new AppError(ErrorCode.CATALOGUE_WORKBOOK_TOO_LARGE);
    chunks.push(chunk);
  }
  if (source.truncated()) throw new AppError(ErrorCode.CATALOGUE_WORKBOOK_TOO_LARGE);
  const bytes = Buffer.concat(chunks);
  if (bytes.length < ZIP_MAGIC.length || !bytes.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) throw new AppError(ErrorCode.CATALOGUE_WORKBOOK_NOT_XLSX);
  const fileName = (source.fileName ?? '').trim().slice(0, 200) || 'catalogue.xlsx';
  return { bytes, fileName, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** A zip that is not a workbook (or a damaged one) is the uploader's mistake, never a 500. */
async function readable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(ErrorCode.CATALOGUE_WORKBOOK_UNREADABLE);
  }
}

export function createCatalogueWorkbook(db: Kysely<Database>, deps: { now: () => number }) {
  return {
    async export(): Promise<{ file_name: string; content_base64: string }> {
      const bytes = await exportWorkbook(db);
      return { file_name: 'catalogue.xlsx', content_base64: bytes.toString('base64') };
    },

    /** What the upload would change, or every bad row; writes nothing. */
    async preview(source: UploadSource): Promise<WorkbookPreview> {
      const upload = await readUpload(source);
      const plan = await readable(() => previewWorkbook(db, upload.bytes));
      return { file_name: upload.fileName, size_bytes: upload.bytes.length, sha256: upload.sha256, ...plan };
    },

    /** Applies the previewed workbook, all or nothing, and records who imported what. */
    async import(caller: Operator, input: { sha256: string }, source: UploadSource): Promise<{ import_id: number; sheets: WorkbookPreview['sheets'] }> {
      const upload = await readUpload(source);
      if (upload.sha256 !== input.sha256) throw new AppError(ErrorCode.CATALOGUE_WORKBOOK_CHANGED);
      const at = deps.now();
      const result = await readable(() => importWorkbook(db, upload.bytes, at));
      if (!result.applied) {
        const first = result.problems[0];
        throw new AppError(
          ErrorCode.CATALOGUE_WORKBOOK_ROWS_INVALID,
          first
            ? `工作簿有 ${result.problems.length} 处错误，未导入任何内容（${first.sheet}${first.row > 0 ? ` 第 ${first.row} 行` : ''} ${first.column}：${first.reason}）`
            : undefined,
        );
      }
      const changed = result.sheets.filter((sheet) => sheet.rows.length > 0);
      const { import_id } = await db
        .insertInto('catalogue_import')
        .values({
          operator_id: caller.operatorId,
          imported_at: at,
          file_name: upload.fileName,
          sha256: upload.sha256,
          size_bytes: upload.bytes.length,
          changes: JSON.stringify(changed),
        })
        .returning('import_id')
        .executeTakeFirstOrThrow();
      return { import_id, sheets: result.sheets };
    },
  };
}

export type CatalogueWorkbook = ReturnType<typeof createCatalogueWorkbook>;
