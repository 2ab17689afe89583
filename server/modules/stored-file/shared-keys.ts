// Stored objects shared by reference (issue 28 part 3): a traveller's saved
// document (traveller_document) reused in an order is the same object as the
// order's file (order_material_file), under the same storage_key — never a
// copy. An object is deleted only when no row of these tables points at it
// any more: after a replace or delete (stored-files.ts `drop`), by the
// retention job (an order's files whose object a traveller or another order
// still uses), and when a traveller's documents are deleted.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Whether a row still points at the object: any document, or an order's file (except those of `exceptOrderId`, being purged). */
export async function storageKeyInUse(db: Kysely<Database>, key: string, exceptOrderId?: number): Promise<boolean> {
  const document = await db.selectFrom('traveller_document').select('document_id').where('storage_key', '=', key).limit(1).executeTakeFirst();
  if (document) return true;
  let files = db.selectFrom('order_material_file').select('file_id').where('storage_key', '=', key);
  if (exceptOrderId !== undefined) files = files.where('user_order_id', '!=', exceptOrderId);
  return (await files.limit(1).executeTakeFirst()) !== undefined;
}
