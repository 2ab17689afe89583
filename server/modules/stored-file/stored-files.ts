// The files of one kind (kind.ts), bound to the database and the storage:
// what every kind's service calls instead of its own copy.
//
// An upload is read exactly once, as a stream: its first bytes decide its
// type before anything is stored, then it goes to the storage under a fresh
// random key while it is counted and hashed (upload-stream.ts). The service
// then records it in its own transaction through `keep`, which deletes the
// stored object when that fails; an object a row no longer points at (a
// replaced or deleted file) is deleted after the commit with `drop` (a crash
// in between leaves an orphan object, never a row without its object).
//
// Serving: `fileFor` finds a file for a viewer — the customer of its order's
// enterprise (and what the kind shows them), or any operator, whose every
// open is written to file_access_log before a byte is sent; `open` reads its
// object. serve.ts puts both behind the kind's two routes.
import type { Kysely } from 'kysely';
import { ErrorCode } from '../../../common/error-codes.ts';
import { formatBytes, type MaterialContentType } from '../../../common/material.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { recordFileAccess } from './access-log.ts';
import { cleanFileName } from './file-name.ts';
import type { StoredFileKind, StoredFileRow, StoredFileTable } from './kind.ts';
import { StoredFileDamagedError } from './envelope.ts';
import { type ByteRange, type FileStorage, newStorageKey, type StoredObject } from './storage.ts';
import { storageKeyInUse } from './shared-keys.ts';
import { inspectUpload } from './upload-stream.ts';

export interface StoredFileDeps {
  storage: FileStorage;
  /** UPLOAD_MAX_BYTES: a kind's limit unless it declares its own. */
  maxBytes: number;
  now: () => number;
  log: { error(obj: object, msg: string): void };
}

/** A file as an upload call hands it over (multipart.ts). */
export interface UploadSource {
  fileName: string | undefined;
  stream: AsyncIterable<Buffer>;
  /** The multipart parser cut the file at its own limit (belt and braces: the meter refuses first). */
  truncated(): boolean;
}

/** What `store` wrote: the columns of the file's row. */
export interface StoredUpload {
  storage_key: string;
  file_name: string;
  content_type: MaterialContentType;
  size_bytes: number;
  sha256: string;
}

/** Who asks for a stored file: a customer of an enterprise, or an operator (whose opens are logged). */
export type FileViewer = { kind: 'customer'; enterpriseId: number } | { kind: 'operator'; operatorId: number; ip: string | null };

/** A narrower rule than the kind's for one upload (the visa photo: JPEG or PNG, its own refusal). */
export interface Accept {
  types: readonly MaterialContentType[];
  refused: () => AppError;
}

/** What an object store needs of a kind: its name (logs), what it accepts and its size limit. */
export interface ObjectSpec {
  name: string;
  contentTypes: readonly MaterialContentType[];
  maxBytes?: number;
}

/**
 * Storing, keeping, dropping and opening objects for one kind of file, without
 * the kind's table: what `createStoredFiles` binds to a table of an order's
 * files, and what the travellers' documents (modules/traveller) use directly.
 */
export function createObjectStore(db: Kysely<Database>, spec: ObjectSpec, deps: StoredFileDeps) {
  const { storage, log } = deps;
  const maxBytes = spec.maxBytes ?? deps.maxBytes;
  const tooLarge = () => new AppError(ErrorCode.MATERIAL_FILE_TOO_LARGE, `文件过大，单个文件不能超过 ${formatBytes(maxBytes)}`);

  /**
   * Best effort: a failure leaves an orphan object (logged), never a broken row. An object another
   * row still points at (a traveller's document reused by an order: shared-keys.ts) is kept.
   */
  async function drop(key: string, why: string): Promise<void> {
    try {
      if (await storageKeyInUse(db, key)) return;
      await storage.delete(key);
    } catch (error) {
      log.error({ err: error, storageKey: key, why, fileKind: spec.name }, `stored ${spec.name} file could not be deleted (orphan object)`);
    }
  }

  return {
    /** The largest file accepted, in bytes (the multipart parser's limit follows it). */
    maxBytes,

    /** Checks an upload by content and size while storing it under a new key; throws the refusal (nothing is left stored). */
    async store(
      source: UploadSource,
      accept: Accept = { types: spec.contentTypes, refused: () => new AppError(ErrorCode.MATERIAL_FILE_TYPE) },
    ): Promise<StoredUpload> {
      const upload = await inspectUpload(source.stream, { maxBytes, tooLarge });
      if (upload.empty) throw new AppError(ErrorCode.MATERIAL_FILE_EMPTY);
      const contentType = upload.contentType;
      if (contentType === null || !accept.types.includes(contentType)) {
        await upload.discard();
        throw accept.refused();
      }
      const key = newStorageKey();
      await storage.put(key, upload.body, { contentType });
      const { size, sha256 } = upload.digest();
      if (source.truncated()) {
        await drop(key, 'truncated by the multipart limit');
        throw tooLarge();
      }
      return { storage_key: key, file_name: cleanFileName(source.fileName), content_type: contentType, size_bytes: size, sha256 };
    },

    /** Records a stored upload (the service's transaction); its object is deleted when recording fails. */
    async keep<R>(stored: StoredUpload, record: () => Promise<R>): Promise<R> {
      try {
        return await record();
      } catch (error) {
        await drop(stored.storage_key, 'not recorded');
        throw error;
      }
    },

    drop,

    /**
     * The stored bytes of a file's row, or of a range of them (null when the object is gone: logged,
     * served as 404). A file that does not open (changed, cut short, another master key) throws
     * StoredFileDamagedError before any byte when its start is damaged, else ends its stream with it;
     * either way it is logged here.
     */
    async open(file: { storage_key: string }, range?: ByteRange): Promise<StoredObject | null> {
      const damaged = (error: unknown) => {
        if (error instanceof StoredFileDamagedError) {
          log.error({ fileKind: spec.name, storageKey: file.storage_key, reason: error.reason }, 'stored file refused: it does not open (damaged or tampered)');
        }
      };
      let stored: StoredObject | null;
      try {
        stored = await storage.get(file.storage_key, range);
      } catch (error) {
        damaged(error);
        throw error;
      }
      if (!stored) log.error({ fileKind: spec.name, storageKey: file.storage_key }, 'stored file row without its stored object');
      stored?.body.on('error', damaged);
      return stored;
    },
  };
}

export type ObjectStore = ReturnType<typeof createObjectStore>;

export function createStoredFiles<T extends StoredFileTable>(db: Kysely<Database>, kind: StoredFileKind<T>, deps: StoredFileDeps) {
  const objects = createObjectStore(db, kind, deps);
  // The kind's table is known only at run time: its columns are StoredFileColumns (kind.ts checks the declaration).
  const tables = db as Kysely<any>;
  const table: string = kind.table;
  const idColumn: string = kind.idColumn;
  const purgedColumn: string | undefined = kind.retention.purgedColumn;

  return {
    kind,
    ...objects,

    /** A file the viewer may see, or null (missing, another enterprise's, not shown, purged: all the same). */
    async fileFor(viewer: FileViewer, id: number): Promise<StoredFileRow<T> | null> {
      let query = tables
        .selectFrom(`${table} as f`)
        .innerJoin('user_order as o', 'o.user_order_id', 'f.user_order_id')
        .select('o.enterprise_id')
        .selectAll('f')
        .where(`f.${idColumn}`, '=', id);
      if (purgedColumn) query = query.where(`f.${purgedColumn}`, 'is', null);
      const file = (await query.executeTakeFirst()) as StoredFileRow<T> | undefined;
      if (!file) return null;
      if (viewer.kind === 'customer') {
        if (file.enterprise_id !== viewer.enterpriseId) return null;
        if (kind.shownToCustomer && !(await kind.shownToCustomer(file, db))) return null;
        return file;
      }
      // Written before a byte is sent: an open that is not logged does not happen.
      await recordFileAccess(db, {
        operator_id: viewer.operatorId,
        file_kind: kind.name,
        file_id: idOf(file),
        user_order_id: file.user_order_id,
        ip: viewer.ip,
        accessed_at: deps.now(),
      });
      return file;
    },
  };

  /** A file's id (its kind's id column). */
  function idOf(file: StoredFileRow<T>): number {
    return (file as Record<string, unknown>)[idColumn] as number;
  }
}

export type StoredFiles<T extends StoredFileTable = StoredFileTable> = ReturnType<typeof createStoredFiles<T>>;
