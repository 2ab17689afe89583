// A kind of stored file is a declaration (decision 0033): its table, its
// routes, what it accepts, who sees it beyond its order's enterprise, and how
// retention ends it. Everything else — the content and size checks, the
// storage (disk or S3), serving with the owner and operator checks and their
// headers, the access log, the retention purge — is this module's, the same
// for every kind. The kinds today: customers' materials and photos
// (material/material-files.ts), page-check pages (page-check/page-check-files.ts),
// visa results' e-visas and refusal letters (result/result-files.ts).
import type { Kysely, Selectable } from 'kysely';
import type { MaterialContentType } from '../../../common/material.ts';
import type { Database } from '../../db/schema.ts';

/** The columns every table of stored files has, beside its own id column. */
export interface StoredFileColumns {
  user_order_id: number;
  applicant_id: number;
  /** Where the object is (storage.ts makes the keys). */
  storage_key: string;
  /** The client's name, cleaned (file-name.ts). */
  file_name: string;
  /** Detected from the first bytes (file-type.ts). */
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_at: number;
}

/** The columns of a stored upload (stored-files.ts `store`), for a kind's own column lists. */
export const STORED_UPLOAD_COLUMNS = ['storage_key', 'file_name', 'content_type', 'size_bytes', 'sha256'] as const;

/** The tables that can hold a kind of stored file: those with every column above. */
export type StoredFileTable = { [T in keyof Database]: Database[T] extends StoredFileColumns ? T : never }[keyof Database];

/** A stored file's row as its kind's table holds it, with its order's enterprise (the owner). */
export type StoredFileRow<T extends StoredFileTable = StoredFileTable> = Selectable<Database[T]> & StoredFileColumns & { enterprise_id: number };

export interface StoredFileKindDeclaration<T extends StoredFileTable> {
  /** Its name in file_access_log.file_kind and in the logs. */
  name: string;
  table: T;
  /** The table's id column: the number in the file routes' URLs. */
  idColumn: keyof Database[T] & string;
  /** What an upload may be, by its first bytes; anything else is refused (1824). */
  contentTypes: readonly MaterialContentType[];
  /** At most this many bytes (1822 beyond); UPLOAD_MAX_BYTES when absent. */
  maxBytes?: number;
  /** The customer's file route, e.g. '/files/material/' (the id follows). */
  customerPath: string;
  /** The operators' file route, e.g. '/admin-files/material/': every open is logged, nothing is cached. */
  adminPath: string;
  /**
   * How the customer's route answers. `etag`: with an ETag, and 304 to a
   * matching If-None-Match (images the customer's own pages show again and
   * again). `framed`: our own pages may frame it (PDFs inline), under the
   * file's own Content-Security-Policy, not indexed. The operators' route is
   * always framed and never has an ETag.
   */
  customerCopy: { etag: boolean; framed: boolean };
  /**
   * Whether the customer of the file's enterprise may see it now (a published
   * page, a file attached to a result). Every file of their orders when absent.
   * Anything refused is the same 404 as a missing file.
   */
  shownToCustomer?: (file: StoredFileRow<T>, db: Kysely<Database>) => boolean | Promise<boolean>;
  /** How the retention job ends these files (server/modules/retention). */
  retention: {
    /** The key of their count in the retention_purge event. */
    name: string;
    /**
     * Absent: the row is deleted with its object. A column: the row stays
     * (something points at it) and this column gets the purge time; such a
     * file is then served to no one.
     */
    purgedColumn?: keyof Database[T] & string;
    /**
     * Files of an order kept later than the scans (id → epoch ms): e-visas
     * until their validity ends. The others go RETENTION_DAYS after the order
     * finished.
     */
    keptUntil?: (db: Kysely<Database>, userOrderId: number) => Promise<Map<number, number>>;
  };
}

export interface StoredFileKind<T extends StoredFileTable = StoredFileTable> extends Readonly<StoredFileKindDeclaration<T>> {
  /** The link to a file for its audience; the hash part changes with the content, so a cached copy is never shown for a new one. */
  urlOf(audience: 'customer' | 'operator', file: { id: number; sha256: string }): string;
}

export function defineStoredFileKind<T extends StoredFileTable>(declaration: StoredFileKindDeclaration<T>): StoredFileKind<T> {
  return Object.freeze({
    ...declaration,
    urlOf: (audience: 'customer' | 'operator', file: { id: number; sha256: string }) =>
      `${audience === 'customer' ? declaration.customerPath : declaration.adminPath}${file.id}?v=${file.sha256.slice(0, 16)}`,
  });
}
