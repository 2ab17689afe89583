// The file access log (file_access_log, migration 011): one row each time an
// operator opens a customer's stored file, of any kind, written by
// stored-files.ts before a byte is sent; read by supervisors (the back
// office's 文件访问记录, through the review module).
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, FileAccessLogTable } from '../../db/schema.ts';
import type { StoredFileKind, StoredFileTable } from './kind.ts';

/** One open: file_kind is the kind's name (kind.ts). */
export type FileAccess = Insertable<FileAccessLogTable>;

export interface AccessLogFilter {
  operatorId?: number;
  userOrderId?: number;
}

export async function recordFileAccess(db: Kysely<Database>, row: FileAccess): Promise<void> {
  await db.insertInto('file_access_log').values(row).execute();
}

/**
 * A page of the log, newest first, and how many rows match. `named`: the kind
 * whose file names the rows show (its file's current name; null once deleted,
 * and for the other kinds).
 */
export async function fileAccessLogPage<T extends StoredFileTable>(
  db: Kysely<Database>,
  named: StoredFileKind<T>,
  filter: AccessLogFilter,
  page: number,
  pageSize: number,
) {
  // The kind's table is known only at run time.
  const table: string = named.table;
  const idColumn: string = named.idColumn;
  let query = (db as Kysely<any>)
    .selectFrom('file_access_log')
    .leftJoin(`${table} as f`, (join) => join.onRef(`f.${idColumn}`, '=', 'file_access_log.file_id').on('file_access_log.file_kind', '=', named.name))
    .select([
      'file_access_log.file_access_log_id',
      'file_access_log.operator_id',
      'file_access_log.file_kind',
      'file_access_log.file_id',
      'file_access_log.user_order_id',
      'file_access_log.ip',
      'file_access_log.accessed_at',
      'f.file_name',
    ]);
  let count = db.selectFrom('file_access_log').select((eb) => eb.fn.countAll<number>().as('n'));
  if (filter.operatorId !== undefined) {
    query = query.where('file_access_log.operator_id', '=', filter.operatorId);
    count = count.where('operator_id', '=', filter.operatorId);
  }
  if (filter.userOrderId !== undefined) {
    query = query.where('file_access_log.user_order_id', '=', filter.userOrderId);
    count = count.where('user_order_id', '=', filter.userOrderId);
  }
  const [rows, total] = await Promise.all([
    query
      .orderBy('file_access_log.accessed_at', 'desc')
      .orderBy('file_access_log.file_access_log_id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute() as Promise<Array<Selectable<FileAccessLogTable> & { file_name: string | null }>>,
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
