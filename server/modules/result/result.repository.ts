// The visa results' tables (migration 016): one result per applicant and the
// files an operator attaches (e-visa, embassy letter). Only this module writes them.
import type { Kysely, Transaction } from 'kysely';
import { toJson } from '../../db/json.ts';
import type { Database, VisaResultTable } from '../../db/schema.ts';
import { EVISA_TAG, type VisaResultFileKind } from '../../../common/visa-result.ts';
import { STORED_UPLOAD_COLUMNS } from '../stored-file/kind.ts';
import type { StoredUpload } from '../stored-file/stored-files.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A result file's row: the stored upload's columns (stored-file module), whose it is, its kind and who uploaded it. */
export interface NewResultFile extends StoredUpload {
  user_order_id: number;
  applicant_id: number;
  kind: VisaResultFileKind;
  operator_id: number;
  created_at: number;
}

export interface NewResult {
  user_order_id: number;
  applicant_id: number;
  result: VisaResultTable['result'];
  visa_no: string | null;
  valid_from: string | null;
  valid_to: string | null;
  entries: string | null;
  stay_days: number | null;
  reject_reasons: string[] | null;
  reject_note: string | null;
  file_id: number | null;
  operator_id: number;
  created_at: number;
}

const FILE_COLUMNS = ['file_id', 'user_order_id', 'applicant_id', 'kind', ...STORED_UPLOAD_COLUMNS, 'result_id', 'purged_at'] as const;

export function createResultRepository(db: Kysely<Database>) {
  return {
    applicants: (userOrderIds: number[]) =>
      userOrderIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('order_applicant')
            .select(['applicant_id', 'user_order_id', 'name', 'identity_id', 'status'])
            .where('user_order_id', 'in', userOrderIds)
            .orderBy('sort')
            .orderBy('applicant_id')
            .execute(),

    results: (userOrderIds: number[], trx: Db = db) =>
      userOrderIds.length === 0
        ? Promise.resolve([])
        : trx
            .selectFrom('visa_result')
            .leftJoin('operator', 'operator.id', 'visa_result.operator_id')
            .selectAll('visa_result')
            .select('operator.name as operator_name')
            .where('visa_result.user_order_id', 'in', userOrderIds)
            .execute(),

    resultOf: (applicantId: number, trx: Db = db) =>
      trx.selectFrom('visa_result').select(['result_id']).where('applicant_id', '=', applicantId).executeTakeFirst(),

    files: (userOrderId: number) => db.selectFrom('visa_result_file').select(FILE_COLUMNS).where('user_order_id', '=', userOrderId).execute(),

    file: (fileId: number) => db.selectFrom('visa_result_file').select(FILE_COLUMNS).where('file_id', '=', fileId).executeTakeFirst(),

    insertFile: async (row: NewResultFile) => (await db.insertInto('visa_result_file').values(row).returning('file_id').executeTakeFirstOrThrow()).file_id,

    /** Whether the product of the order is an e-visa (tagged 电子签). */
    isEvisa: async (visaProductId: number) =>
      (await db
        .selectFrom('visa_product_tag')
        .innerJoin('visa_tag', 'visa_tag.tag_id', 'visa_product_tag.tag_id')
        .select('visa_product_tag.tag_id')
        .where('visa_product_tag.visa_product_id', '=', visaProductId)
        .where('visa_tag.name', '=', EVISA_TAG)
        .executeTakeFirst()) !== undefined,

    /** The result row; its file attached under the lock (a file already used → false). */
    async insertResult(trx: Transaction<Database>, row: NewResult): Promise<boolean> {
      const { reject_reasons, ...rest } = row;
      const { result_id } = await trx
        .insertInto('visa_result')
        .values({ ...rest, reject_reasons: reject_reasons === null ? null : toJson(reject_reasons) })
        .returning('result_id')
        .executeTakeFirstOrThrow();
      if (row.file_id === null) return true;
      const attached = await trx
        .updateTable('visa_result_file')
        .set({ result_id })
        .where('file_id', '=', row.file_id)
        .where('applicant_id', '=', row.applicant_id)
        .where('result_id', 'is', null)
        .executeTakeFirst();
      return Number(attached.numUpdatedRows) === 1;
    },
  };
}

export type ResultRepository = ReturnType<typeof createResultRepository>;
