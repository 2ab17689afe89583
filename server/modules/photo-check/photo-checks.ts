// The photo checks of an order's visa photos (issue 28): run the analysis on
// an uploaded photo, keep its verdict (table photo_check, migration 051) and
// the processed photo (a stored object of the one file storage, encrypted at
// rest like every stored file), and read them back for the upload page and the
// operator's review. The material module calls it around a photo upload and
// for the customer's choice; it knows nothing of orders' states itself.
import { storageKeyInUse } from '../stored-file/shared-keys.ts';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely, Transaction } from 'kysely';
import { photoColorName } from '../../../common/material.ts';
import { PHOTO_VERDICT_LABELS, type PhotoCheckView, type PhotoVerdict } from '../../../common/photo-check.ts';
import { fromJson, toJson } from '../../db/json.ts';
import type { Database, PhotoCheckTable } from '../../db/schema.ts';
import { type FileStorage, newStorageKey } from '../stored-file/storage.ts';
import type { FaceDetector } from './face-detector.ts';
import { analysePhoto, type PhotoAnalysis, type PhotoRule } from './photo-analysis.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface PhotoCheckDeps {
  storage: FileStorage;
  now: () => number;
  log: { error(obj: object, msg: string): void };
  /** The face detector (default: face-api on the WebAssembly backend). */
  detector?: FaceDetector;
}

/** A finished analysis with its time, ready to record. */
export interface PhotoCheckRun {
  verdict: PhotoVerdict;
  analysis: PhotoAnalysis | null;
  rule: PhotoRule;
  ms: number;
}

/** Reads a stored object whole (a photo: at most the upload limit). */
async function readAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** How many recent verdicts are kept (a few hundred KB: a processed photo is a small JPEG). */
const RECENT_VERDICTS = 32;
/** The default detector's recent verdicts, shared by every app in the process (the analysis depends on nothing else). */
const RECENT_OF_DEFAULT_DETECTOR = new Map<string, PhotoAnalysis>();

export function createPhotoChecks(db: Kysely<Database>, deps: PhotoCheckDeps) {
  const { storage, log } = deps;
  // The same photo checked against the same rule gets the same verdict: a
  // customer who uploads the file again, or a saved traveller's photo reused
  // for the next order, is answered at once instead of after a second of face
  // detection. Keyed by content and rule; the oldest is forgotten first. A
  // detector handed in (a test's) keeps its own.
  const recent = deps.detector ? new Map<string, PhotoAnalysis>() : RECENT_OF_DEFAULT_DETECTOR;
  const remember = (key: string, analysis: PhotoAnalysis) => {
    recent.delete(key);
    recent.set(key, analysis);
    if (recent.size > RECENT_VERDICTS) recent.delete(recent.keys().next().value!);
  };

  /** An object another row still points at (the original photo may be a traveller's saved document: shared-keys.ts) is kept. */
  async function drop(key: string | null | undefined) {
    if (!key) return;
    try {
      if (await storageKeyInUse(db, key)) return;
      await storage.delete(key);
    } catch (error) {
      log.error({ err: error, storageKey: key }, 'processed photo could not be deleted (orphan object)');
    }
  }

  function view(row: Selected, preview: string | null): PhotoCheckView {
    return {
      file_id: row.file_id,
      verdict: row.verdict,
      verdict_label: PHOTO_VERDICT_LABELS[row.verdict],
      problems: fromJson(row.problems),
      fixes: fromJson(row.fixes),
      choice: row.choice,
      processed_preview: preview,
      rule: { color_name: photoColorName(row.rule_color), width: row.rule_width, height: row.rule_height },
      checked_at: row.checked_at,
    };
  }

  type Selected = Pick<
    PhotoCheckTable,
    'file_id' | 'verdict' | 'problems' | 'fixes' | 'choice' | 'rule_color' | 'rule_width' | 'rule_height' | 'checked_at' | 'processed_key' | 'user_order_id'
  >;
  const COLUMNS = [
    'file_id',
    'user_order_id',
    'verdict',
    'problems',
    'fixes',
    'choice',
    'rule_color',
    'rule_width',
    'rule_height',
    'checked_at',
    'processed_key',
  ] as const;

  /** The bytes of a stored object (null when it is gone). */
  async function bytesOf(key: string): Promise<Buffer | null> {
    const stored = await storage.get(key);
    return stored ? readAll(stored.body) : null;
  }

  /** Deletes a file's check inside the caller's transaction; returns the processed object's key to delete after the commit. */
  async function forget(trx: Db, fileId: number): Promise<string | null> {
    const row = await trx.selectFrom('photo_check').select('processed_key').where('file_id', '=', fileId).executeTakeFirst();
    if (!row) return null;
    await trx.deleteFrom('photo_check').where('file_id', '=', fileId).execute();
    return row.processed_key;
  }

  return {
    bytesOf,

    /** Checks a photo; a failure of the checker itself is an `error` verdict, never a refusal of the upload. */
    async run(bytes: Buffer, rule: PhotoRule): Promise<PhotoCheckRun> {
      const start = performance.now();
      const key = `${createHash('sha256').update(bytes).digest('hex')}:${rule.color}:${rule.width}x${rule.height}`;
      try {
        const analysis = recent.get(key) ?? (await analysePhoto(bytes, rule, deps.detector));
        remember(key, analysis);
        return { verdict: analysis.verdict, analysis, rule, ms: Math.round(performance.now() - start) };
      } catch (error) {
        log.error({ err: error }, 'photo check failed');
        return { verdict: 'error', analysis: null, rule, ms: Math.round(performance.now() - start) };
      }
    },

    /** Records the check of a photo file (replacing an earlier one, whose processed photo is deleted). */
    async record(file: { file_id: number; user_order_id: number; sha256: string }, run: PhotoCheckRun): Promise<void> {
      let processedKey: string | null = null;
      let processedSha: string | null = null;
      const processed = run.analysis?.processed ?? null;
      if (processed) {
        processedKey = newStorageKey();
        await storage.put(processedKey, Readable.from([processed]), { contentType: 'image/jpeg' });
        processedSha = createHash('sha256').update(processed).digest('hex');
      }
      const problems = run.verdict === 'error' ? ['照片检测暂时不可用：照片已保存，审核时由工作人员人工检查'] : (run.analysis?.problems ?? []);
      let old: string | null = null;
      try {
        await db.transaction().execute(async (trx) => {
          old = await forget(trx, file.file_id);
          await trx
            .insertInto('photo_check')
            .values({
              file_id: file.file_id,
              user_order_id: file.user_order_id,
              sha256: file.sha256,
              verdict: run.verdict,
              problems: toJson(problems),
              fixes: toJson(run.analysis?.fixes ?? []),
              measures: toJson(run.analysis?.measures ?? {}),
              rule_color: run.rule.color,
              rule_width: run.rule.width,
              rule_height: run.rule.height,
              processed_key: processedKey,
              processed_sha256: processedSha,
              processed_size: processed?.length ?? null,
              choice: null,
              checked_at: deps.now(),
              duration_ms: run.ms,
            })
            .execute();
        });
      } catch (error) {
        await drop(processedKey);
        throw error;
      }
      await drop(old);
    },

    forget,

    drop,

    /** One file's check (with its processed object's details), or undefined. */
    row(trx: Db, fileId: number) {
      return trx
        .selectFrom('photo_check')
        .select([...COLUMNS, 'processed_sha256', 'processed_size'])
        .where('file_id', '=', fileId)
        .executeTakeFirst();
    },

    /** The customer chose: the check's processed object is handed over (its key cleared) or to be deleted. */
    async setChoice(trx: Db, fileId: number, choice: 'original' | 'processed'): Promise<void> {
      await trx.updateTable('photo_check').set({ choice, processed_key: null }).where('file_id', '=', fileId).execute();
    },

    /** The checks of an order's photos by file id; `previews` adds the processed photo while the choice is open. */
    async ofOrder(userOrderId: number, previews: boolean): Promise<Map<number, PhotoCheckView>> {
      const rows = await db.selectFrom('photo_check').select(COLUMNS).where('user_order_id', '=', userOrderId).execute();
      const views = new Map<number, PhotoCheckView>();
      for (const row of rows) {
        let preview: string | null = null;
        if (previews && row.verdict === 'fixed' && row.choice === null && row.processed_key) {
          const bytes = await bytesOf(row.processed_key).catch(() => null);
          if (bytes) preview = `data:image/jpeg;base64,${bytes.toString('base64')}`;
        }
        views.set(row.file_id, view(row, preview));
      }
      return views;
    },

    /** The checks of many orders' photos (the operator's views), by file id, without previews. */
    async ofOrders(userOrderIds: number[]): Promise<Map<number, PhotoCheckView>> {
      if (userOrderIds.length === 0) return new Map();
      const rows = await db.selectFrom('photo_check').select(COLUMNS).where('user_order_id', 'in', userOrderIds).execute();
      return new Map(rows.map((row) => [row.file_id, view(row, null)]));
    },
  };
}

export type PhotoChecks = ReturnType<typeof createPhotoChecks>;
