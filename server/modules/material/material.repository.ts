// Queries of the material module. The order itself is the lifecycle's
// (server/modules/order/lifecycle.ts): file writes run inside its
// transactions, after it has taken the order row, so they serialise with the
// order's own state changes and with other uploads.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { STORED_UPLOAD_COLUMNS } from '../stored-file/kind.ts';
import type { StoredUpload } from '../stored-file/stored-files.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A file's row: the stored upload's columns (stored-file module), whose it is, for which item, and who uploaded it. */
export interface NewFileRow extends StoredUpload {
  user_order_id: number;
  applicant_id: number;
  material_id: number | null;
  kind: 'material' | 'photo';
  account_id: number;
  created_at: number;
  /** The traveller's saved document this file reuses (the same stored object); absent: uploaded for the order. */
  reused_document_id?: number | null;
}

const FILE_COLUMNS = [
  'file_id',
  'user_order_id',
  'applicant_id',
  'material_id',
  'kind',
  ...STORED_UPLOAD_COLUMNS,
  'review_status',
  'no_pass_memo',
  'created_at',
  'reused_document_id',
] as const;

export function createMaterialRepository(db: Kysely<Database>) {
  return {
    applicants(userOrderId: number) {
      return db
        .selectFrom('order_applicant')
        .select(['applicant_id', 'name', 'identity_id'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('sort')
        .orderBy('applicant_id')
        .execute();
    },

    applicant(userOrderId: number, applicantId: number) {
      return db
        .selectFrom('order_applicant')
        .select(['applicant_id', 'name', 'identity_id'])
        .where('user_order_id', '=', userOrderId)
        .where('applicant_id', '=', applicantId)
        .executeTakeFirst();
    },

    /** The order's whole checklist (every identity, every attr; as placed, issue 26), in display order. */
    materials(userOrderId: number) {
      return db
        .selectFrom('order_checklist_item')
        .select(['material_id', 'identity_id', 'required', 'attr', 'name', 'attention', 'sample', 'sort'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('sort')
        .orderBy('material_id')
        .execute();
    },

    material(userOrderId: number, materialId: number) {
      return db
        .selectFrom('order_checklist_item')
        .select(['material_id', 'identity_id', 'attr', 'name'])
        .where('user_order_id', '=', userOrderId)
        .where('material_id', '=', materialId)
        .executeTakeFirst();
    },

    files(userOrderId: number) {
      return db.selectFrom('order_material_file').select(FILE_COLUMNS).where('user_order_id', '=', userOrderId).orderBy('file_id').execute();
    },

    /** One applicant's files for one material (material_id) or their photo (null). */
    filesOf(userOrderId: number, applicantId: number, materialId: number | null) {
      let query = db.selectFrom('order_material_file').select(FILE_COLUMNS).where('user_order_id', '=', userOrderId).where('applicant_id', '=', applicantId);
      query = materialId === null ? query.where('kind', '=', 'photo') : query.where('kind', '=', 'material').where('material_id', '=', materialId);
      return query.orderBy('file_id').execute();
    },

    file(userOrderId: number, fileId: number) {
      return db
        .selectFrom('order_material_file')
        .select(FILE_COLUMNS)
        .where('user_order_id', '=', userOrderId)
        .where('file_id', '=', fileId)
        .executeTakeFirst();
    },

    /** Files of one applicant for one material (material_id) or their photos (null). */
    async countFiles(trx: Db, userOrderId: number, applicantId: number, materialId: number | null): Promise<number> {
      let query = trx
        .selectFrom('order_material_file')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_order_id', '=', userOrderId)
        .where('applicant_id', '=', applicantId);
      query = materialId === null ? query.where('kind', '=', 'photo') : query.where('kind', '=', 'material').where('material_id', '=', materialId);
      const row = await query.executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async insertFile(trx: Db, row: NewFileRow): Promise<number> {
      const { file_id } = await trx.insertInto('order_material_file').values(row).returning('file_id').executeTakeFirstOrThrow();
      return file_id;
    },

    /** New content for an existing row, only if it still holds `expectedKey` (no concurrent replace/delete). */
    async replaceFile(
      trx: Db,
      fileId: number,
      expectedKey: string,
      content: Pick<NewFileRow, 'storage_key' | 'file_name' | 'content_type' | 'size_bytes' | 'sha256' | 'account_id' | 'created_at' | 'reused_document_id'>,
    ): Promise<boolean> {
      const result = await trx
        .updateTable('order_material_file')
        // New content is reviewed afresh. The reviewer's memo stays until the next review writes its own:
        // the customer (re-upload page) and the operator still read why the file was replaced.
        .set({ ...content, review_status: 'pending', reviewed_by: null, reviewed_at: null, review_round: null })
        .where('file_id', '=', fileId)
        .where('storage_key', '=', expectedKey)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async deleteFile(trx: Db, fileId: number, expectedKey: string): Promise<boolean> {
      const result = await trx.deleteFrom('order_material_file').where('file_id', '=', fileId).where('storage_key', '=', expectedKey).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

export type MaterialRepository = ReturnType<typeof createMaterialRepository>;
export type MaterialFileRow = NonNullable<Awaited<ReturnType<MaterialRepository['file']>>>;
