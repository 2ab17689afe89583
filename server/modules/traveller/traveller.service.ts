// Travellers saved for next time (常用出行人, issue 28 part 3). An enterprise
// keeps its travellers and their reusable documents (passport data page, ID
// card, 户口本, photo); an order's upload step offers each applicant's
// documents for the matching checklist items, and the customer takes them one
// by one. Rules: docs/order-rules.md "Travellers saved for next time".
//
// - Every call sees only the caller's enterprise: another enterprise's
//   traveller or document is answered exactly like a missing one (2401, 2414).
// - Saving records the traveller's consent (consent: true required) with its
//   time and the account, on every save.
// - Documents are stored like every upload (stored-file module: checked by
//   content and size, encrypted at rest). A document taken for an order is the
//   same stored object (order_material_file.reused_document_id, the same
//   storage_key), never a copy; an object is deleted only when no row points
//   at it (stored-file/shared-keys.ts). So deleting a traveller removes their
//   rows at once, and the files an order still uses stay with that order until
//   the order's retention deletes them.
// - An applicant is the traveller with the same name and mobile in the
//   enterprise (the create-order page fills both from the traveller).
import type { Kysely, Selectable } from 'kysely';
import type { TravellerDeleteResult, TravellerDocumentView, TravellerOffersResult, TravellerView } from '../../../common/contracts/traveller.ts';
import type { ParsedPayloadOf } from '../../../common/contracts/define.ts';
import type { travellerSave } from '../../../common/contracts/traveller.ts';
import { EMAIL_PATTERN, MOBILE_PHONE_PATTERN } from '../../../common/contracts/rules.ts';
import { IDENTITIES } from '../../../common/constants.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { MATERIAL_CONTENT_TYPES, PHOTO_CONTENT_TYPES } from '../../../common/material.ts';
import { chinaDate, isCalendarDate } from '../../../common/order.ts';
import { normalizeInputText } from '../../../common/text.ts';
import {
  documentTypeForItem,
  documentUnusableReason,
  isRealDate,
  TRAVELLER_DOCUMENT_TYPES,
  TRAVELLER_LIMITS,
  type TravellerDocumentType,
} from '../../../common/traveller.ts';
import type { Database, TravellerDocumentTable, TravellerTable } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Customer } from '../../platform/principal.ts';
import type { MaterialService } from '../material/material.service.ts';
import { storageKeyInUse } from '../stored-file/shared-keys.ts';
import { createObjectStore, type StoredFileDeps, type UploadSource } from '../stored-file/stored-files.ts';
import { zipArchive } from './zip.ts';

export type TravellerRow = Selectable<TravellerTable>;
export type TravellerDocumentRow = Selectable<TravellerDocumentTable>;
export type TravellerSaveInput = ParsedPayloadOf<typeof travellerSave>;

export interface DocumentUploadInput {
  traveller_id: number;
  doc_type: string;
  taken_date?: string;
  expiry_date?: string;
}

export interface TravellerServiceDeps extends StoredFileDeps {
  material: Pick<MaterialService, 'list' | 'reuse'>;
}

/** The customer's link to a saved document. */
export const TRAVELLER_DOCUMENT_PATH = '/files/traveller-document/';
/** The customer's link to one traveller's export (a zip). */
export const TRAVELLER_EXPORT_PATH = '/files/traveller-export/';

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };
const PINYIN = /^[A-Z]+(?: [A-Z]+)*$/;
const PASSPORT_NO = /^[A-Z0-9]{5,20}$/;

const refuse = (code: (typeof ErrorCode)[keyof typeof ErrorCode]) => new AppError(code);

function optionalText(value: string | null | undefined): string | null {
  const text = normalizeInputText(value ?? '');
  return text === '' ? null : text;
}

export function createTravellerService(db: Kysely<Database>, deps: TravellerServiceDeps) {
  const objects = createObjectStore(db, { name: 'traveller_document', contentTypes: MATERIAL_CONTENT_TYPES }, deps);
  const today = () => chinaDate(deps.now());

  async function ownTraveller(customer: Customer, travellerId: number, on: Kysely<Database> = db): Promise<TravellerRow> {
    const row = await on
      .selectFrom('traveller')
      .selectAll()
      .where('traveller_id', '=', travellerId)
      .where('enterprise_id', '=', customer.enterpriseId)
      .executeTakeFirst();
    if (!row) throw refuse(ErrorCode.TRAVELLER_NOT_FOUND);
    return row;
  }

  async function ownDocument(customer: Customer, documentId: number): Promise<TravellerDocumentRow> {
    const row = await db
      .selectFrom('traveller_document')
      .selectAll()
      .where('document_id', '=', documentId)
      .where('enterprise_id', '=', customer.enterpriseId)
      .executeTakeFirst();
    if (!row) throw refuse(ErrorCode.TRAVELLER_DOCUMENT_NOT_FOUND);
    return row;
  }

  function documentView(doc: TravellerDocumentRow, on: string): TravellerDocumentView {
    const reason = documentUnusableReason(doc, on);
    return {
      document_id: doc.document_id,
      doc_type: doc.doc_type,
      doc_type_label: TRAVELLER_DOCUMENT_TYPES[doc.doc_type],
      file_name: doc.file_name,
      content_type: doc.content_type,
      size: doc.size_bytes,
      taken_date: doc.taken_date,
      expiry_date: doc.expiry_date,
      usable: reason === null,
      unusable_reason: reason,
      url: `${TRAVELLER_DOCUMENT_PATH}${doc.document_id}?v=${doc.sha256.slice(0, 16)}`,
      created_at: Number(doc.created_at),
    };
  }

  function travellerView(row: TravellerRow, docs: TravellerDocumentRow[], on: string): TravellerView {
    return {
      traveller_id: row.traveller_id,
      name: row.name,
      pinyin: row.pinyin,
      sex: row.sex,
      birth_date: row.birth_date,
      mobile_phone: row.mobile_phone,
      email: row.email,
      identity_id: row.identity_id,
      identity_label: IDENTITIES[row.identity_id as keyof typeof IDENTITIES] ?? '',
      passport_no: row.passport_no,
      passport_expiry: row.passport_expiry,
      consent_at: Number(row.consent_at),
      documents: docs.filter((d) => d.traveller_id === row.traveller_id).map((d) => documentView(d, on)),
      updated_at: Number(row.updated_at),
    };
  }

  function documentsOf(travellerIds: number[]) {
    if (travellerIds.length === 0) return Promise.resolve([] as TravellerDocumentRow[]);
    return db.selectFrom('traveller_document').selectAll().where('traveller_id', 'in', travellerIds).orderBy('doc_type').orderBy('document_id').execute();
  }

  /** The fields as the rules want them, or the first broken rule's refusal. */
  function cleanTraveller(input: TravellerSaveInput, on: string) {
    if (input.consent !== true) throw refuse(ErrorCode.TRAVELLER_CONSENT_REQUIRED);
    const name = normalizeInputText(input.name);
    if (name === '' || [...name].length > TRAVELLER_LIMITS.nameMaxLength) throw refuse(ErrorCode.TRAVELLER_NAME_INVALID);
    const pinyin = normalizeInputText(input.pinyin).toUpperCase().replace(/\s+/g, ' ');
    if (pinyin === '' || pinyin.length > TRAVELLER_LIMITS.pinyinMaxLength || !PINYIN.test(pinyin)) throw refuse(ErrorCode.TRAVELLER_PINYIN_INVALID);
    const sex = normalizeInputText(input.sex).toUpperCase();
    if (sex !== 'M' && sex !== 'F') throw refuse(ErrorCode.TRAVELLER_SEX_INVALID);
    const birth = normalizeInputText(input.birth_date);
    if (!isRealDate(birth) || birth > on) throw refuse(ErrorCode.TRAVELLER_BIRTH_DATE_INVALID);
    const mobile = normalizeInputText(input.mobile_phone).replace(/[\s-]/g, '');
    if (!MOBILE_PHONE_PATTERN.test(mobile)) throw refuse(ErrorCode.TRAVELLER_MOBILE_INVALID);
    const email = optionalText(input.email);
    if (email !== null && !EMAIL_PATTERN.test(email)) throw refuse(ErrorCode.TRAVELLER_EMAIL_INVALID);
    if (!Object.hasOwn(IDENTITIES, String(input.identity_id))) throw refuse(ErrorCode.TRAVELLER_IDENTITY_INVALID);
    const passportNo = optionalText(input.passport_no)?.toUpperCase().replace(/\s/g, '') ?? null;
    if (passportNo !== null && !PASSPORT_NO.test(passportNo)) throw refuse(ErrorCode.TRAVELLER_PASSPORT_INVALID);
    const passportExpiry = optionalText(input.passport_expiry);
    if (passportExpiry !== null && !isCalendarDate(passportExpiry)) throw refuse(ErrorCode.TRAVELLER_PASSPORT_EXPIRY_INVALID);
    return {
      name,
      pinyin,
      sex: sex as 'M' | 'F',
      birth_date: birth,
      mobile_phone: mobile,
      email,
      identity_id: input.identity_id,
      passport_no: passportNo,
      passport_expiry: passportExpiry,
    };
  }

  /** A document's dates and type as the rules want them (checked before a byte is stored). */
  function cleanDocument(input: DocumentUploadInput, on: string) {
    if (!Object.hasOwn(TRAVELLER_DOCUMENT_TYPES, input.doc_type)) throw refuse(ErrorCode.TRAVELLER_DOCUMENT_TYPE_INVALID);
    const docType = input.doc_type as TravellerDocumentType;
    const taken = optionalText(input.taken_date);
    const expiry = optionalText(input.expiry_date);
    const bad = () => refuse(ErrorCode.TRAVELLER_DOCUMENT_DATE_INVALID);
    if (taken !== null && (!isCalendarDate(taken) || taken > on)) throw bad();
    if (expiry !== null && !isCalendarDate(expiry)) throw bad();
    if (docType === 'passport' && expiry === null) throw new AppError(ErrorCode.TRAVELLER_DOCUMENT_DATE_INVALID, '请填写护照有效期');
    if (docType === 'photo' && taken === null) throw new AppError(ErrorCode.TRAVELLER_DOCUMENT_DATE_INVALID, '请填写照片的拍摄日期');
    return { doc_type: docType, taken_date: taken, expiry_date: expiry };
  }

  /** Deletes the objects of removed documents no row uses any more; returns how many an order still uses. */
  async function dropObjects(docs: TravellerDocumentRow[]): Promise<number> {
    let kept = 0;
    for (const doc of docs) {
      if (await storageKeyInUse(db, doc.storage_key)) kept += 1;
      else await objects.drop(doc.storage_key, 'traveller document deleted');
    }
    return kept;
  }

  return {
    objects,

    async list(customer: Customer): Promise<TravellerView[]> {
      const rows = await db
        .selectFrom('traveller')
        .selectAll()
        .where('enterprise_id', '=', customer.enterpriseId)
        .orderBy('name')
        .orderBy('traveller_id')
        .execute();
      const docs = await documentsOf(rows.map((r) => r.traveller_id));
      const on = today();
      return rows.map((row) => travellerView(row, docs, on));
    },

    async save(customer: Customer, input: TravellerSaveInput): Promise<TravellerView> {
      const on = today();
      const fields = cleanTraveller(input, on);
      const at = deps.now();
      const id = input.traveller_id ?? null;
      if (id !== null) await ownTraveller(customer, id);
      const twin = await db
        .selectFrom('traveller')
        .select('traveller_id')
        .where('enterprise_id', '=', customer.enterpriseId)
        .where('name', '=', fields.name)
        .where('mobile_phone', '=', fields.mobile_phone)
        .executeTakeFirst();
      if (twin && twin.traveller_id !== id) throw refuse(ErrorCode.TRAVELLER_DUPLICATE);
      const consent = { consent_at: at, consent_account_id: customer.accountId, updated_at: at };
      let travellerId: number;
      if (id !== null) {
        await db
          .updateTable('traveller')
          .set({ ...fields, ...consent })
          .where('traveller_id', '=', id)
          .where('enterprise_id', '=', customer.enterpriseId)
          .execute();
        travellerId = id;
      } else {
        const count = await db
          .selectFrom('traveller')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('enterprise_id', '=', customer.enterpriseId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= TRAVELLER_LIMITS.maxTravellers) throw refuse(ErrorCode.TRAVELLER_LIMIT_REACHED);
        const inserted = await db
          .insertInto('traveller')
          .values({ ...fields, ...consent, enterprise_id: customer.enterpriseId, created_at: at })
          .returning('traveller_id')
          .executeTakeFirstOrThrow();
        travellerId = inserted.traveller_id;
      }
      const row = await ownTraveller(customer, travellerId);
      return travellerView(row, await documentsOf([travellerId]), on);
    },

    /** Deletes the traveller and their documents; files an order still uses stay with it (counted). */
    async remove(customer: Customer, travellerId: number): Promise<TravellerDeleteResult> {
      await ownTraveller(customer, travellerId);
      const docs = await documentsOf([travellerId]);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('traveller_document').where('traveller_id', '=', travellerId).execute();
        await trx.deleteFrom('traveller').where('traveller_id', '=', travellerId).where('enterprise_id', '=', customer.enterpriseId).execute();
      });
      const kept = await dropObjects(docs);
      return { traveller_id: travellerId, documents_deleted: docs.length - kept, documents_kept_for_orders: kept };
    },

    async uploadDocument(customer: Customer, input: DocumentUploadInput, source: UploadSource): Promise<TravellerDocumentView> {
      const on = today();
      await ownTraveller(customer, input.traveller_id);
      const fields = cleanDocument(input, on);
      const countOf = async (trx: Kysely<Database>) =>
        Number(
          (
            await trx
              .selectFrom('traveller_document')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('traveller_id', '=', input.traveller_id)
              .where('doc_type', '=', fields.doc_type)
              .executeTakeFirstOrThrow()
          ).n,
        );
      if ((await countOf(db)) >= TRAVELLER_LIMITS.maxDocumentsPerType) throw refuse(ErrorCode.TRAVELLER_DOCUMENT_LIMIT);
      const photo = fields.doc_type === 'photo';
      const stored = await objects.store(
        source,
        photo ? { types: PHOTO_CONTENT_TYPES, refused: () => new AppError(ErrorCode.MATERIAL_PHOTO_TYPE) } : undefined,
      );
      const documentId = await objects.keep(stored, () =>
        db.transaction().execute(async (trx) => {
          // Again inside the transaction: the traveller may have been deleted, the type filled meanwhile.
          await ownTraveller(customer, input.traveller_id, trx);
          if ((await countOf(trx)) >= TRAVELLER_LIMITS.maxDocumentsPerType) throw refuse(ErrorCode.TRAVELLER_DOCUMENT_LIMIT);
          const row = await trx
            .insertInto('traveller_document')
            .values({
              ...stored,
              ...fields,
              traveller_id: input.traveller_id,
              enterprise_id: customer.enterpriseId,
              account_id: customer.accountId,
              created_at: deps.now(),
            })
            .returning('document_id')
            .executeTakeFirstOrThrow();
          return row.document_id;
        }),
      );
      return documentView(await ownDocument(customer, documentId), on);
    },

    async removeDocument(customer: Customer, documentId: number): Promise<{ document_id: number; kept_for_orders: boolean }> {
      const doc = await ownDocument(customer, documentId);
      await db.deleteFrom('traveller_document').where('document_id', '=', documentId).where('enterprise_id', '=', customer.enterpriseId).execute();
      const kept = await dropObjects([doc]);
      return { document_id: documentId, kept_for_orders: kept > 0 };
    },

    /** What each applicant of a draft order may take from their saved documents (none once the order left the draft). */
    async offers(customer: Customer, userOrderId: number): Promise<TravellerOffersResult> {
      const list = await deps.material.list(customer, userOrderId);
      if (list.mode !== 'draft') return { applicants: [] };
      const on = today();
      const people = await db
        .selectFrom('order_applicant as a')
        .innerJoin('traveller as t', (join) => join.onRef('t.name', '=', 'a.name').onRef('t.mobile_phone', '=', 'a.mobile_phone'))
        .select(['a.applicant_id', 't.traveller_id'])
        .where('a.user_order_id', '=', userOrderId)
        .where('t.enterprise_id', '=', customer.enterpriseId)
        .execute();
      const travellerOf = new Map(people.map((p) => [p.applicant_id, p.traveller_id]));
      const docs = await documentsOf([...new Set(people.map((p) => p.traveller_id))]);
      const reused = await db
        .selectFrom('order_material_file')
        .select(['applicant_id', 'material_id', 'kind', 'reused_document_id'])
        .where('user_order_id', '=', userOrderId)
        .where('reused_document_id', 'is not', null)
        .execute();
      const usedKey = (applicantId: number, materialId: number | null, documentId: number) => `${applicantId}:${materialId ?? 'photo'}:${documentId}`;
      const used = new Set(reused.map((r) => usedKey(r.applicant_id, r.kind === 'photo' ? null : r.material_id, r.reused_document_id!)));

      const applicants: TravellerOffersResult['applicants'] = [];
      for (const applicant of list.applicants) {
        const travellerId = travellerOf.get(applicant.applicant_id);
        if (travellerId === undefined) continue;
        const own = docs.filter((d) => d.traveller_id === travellerId);
        const offers: TravellerOffersResult['applicants'][number]['offers'] = [];
        const skipped: TravellerOffersResult['applicants'][number]['skipped'] = [];
        for (const doc of own) {
          const reason = documentUnusableReason(doc, on);
          const slots: Array<{ material_id: number | null; material_name: string }> =
            doc.doc_type === 'photo'
              ? applicant.photo && PHOTO_CONTENT_TYPES.includes(doc.content_type)
                ? [{ material_id: null, material_name: '签证照片' }]
                : []
              : applicant.electronic
                  .filter((item) => documentTypeForItem(item.name) === doc.doc_type)
                  .map((item) => ({ material_id: item.material_id, material_name: item.name }));
          if (slots.length === 0) continue;
          if (reason !== null) {
            skipped.push({ document_id: doc.document_id, doc_type_label: TRAVELLER_DOCUMENT_TYPES[doc.doc_type], reason });
            continue;
          }
          const view = documentView(doc, on);
          for (const slot of slots) {
            offers.push({
              document_id: doc.document_id,
              doc_type: doc.doc_type,
              doc_type_label: view.doc_type_label,
              file_name: doc.file_name,
              taken_date: doc.taken_date,
              expiry_date: doc.expiry_date,
              url: view.url,
              ...slot,
              used: used.has(usedKey(applicant.applicant_id, slot.material_id, doc.document_id)),
            });
          }
        }
        applicants.push({ applicant_id: applicant.applicant_id, applicant_name: applicant.name, traveller_id: travellerId, offers, skipped });
      }
      return { applicants };
    },

    /** Takes a saved document for an item (or the photo) of one of the traveller's applications: the same stored file. */
    async acceptOffer(customer: Customer, input: { user_order_id: number; applicant_id: number; document_id: number; material_id: number | null }) {
      const doc = await ownDocument(customer, input.document_id);
      const on = today();
      if (documentUnusableReason(doc, on) !== null) throw refuse(ErrorCode.TRAVELLER_DOCUMENT_UNUSABLE);
      // The order's own checks (its enterprise, the applicant, the item, the draft) are the material module's;
      // whether this document fits this applicant and item is ours.
      const list = await deps.material.list(customer, input.user_order_id);
      const applicant = list.applicants.find((a) => a.applicant_id === input.applicant_id);
      if (applicant) {
        const person = await db
          .selectFrom('order_applicant as a')
          .innerJoin('traveller as t', (join) => join.onRef('t.name', '=', 'a.name').onRef('t.mobile_phone', '=', 'a.mobile_phone'))
          .select('t.traveller_id')
          .where('a.applicant_id', '=', input.applicant_id)
          .where('t.traveller_id', '=', doc.traveller_id)
          .executeTakeFirst();
        const item = input.material_id === null ? null : applicant.electronic.find((m) => m.material_id === input.material_id);
        const fits =
          input.material_id === null ? doc.doc_type === 'photo' : item !== undefined && item !== null && documentTypeForItem(item.name) === doc.doc_type;
        if (!person || !fits) throw refuse(ErrorCode.TRAVELLER_DOCUMENT_NOT_MATCHING);
      }
      const result = await deps.material.reuse(
        customer,
        { user_order_id: input.user_order_id, applicant_id: input.applicant_id, material_id: input.material_id, replace_file_id: null },
        { storage_key: doc.storage_key, file_name: doc.file_name, content_type: doc.content_type, size_bytes: doc.size_bytes, sha256: doc.sha256 },
        doc.document_id,
      );
      return { file_id: result.file.file_id, replaced: result.replaced, missing: result.missing };
    },

    /** A saved document of the customer's enterprise, for its file route (null: missing or another's, the same 404). */
    async documentFor(customer: { enterpriseId: number }, documentId: number): Promise<TravellerDocumentRow | null> {
      return (
        (await db
          .selectFrom('traveller_document')
          .selectAll()
          .where('document_id', '=', documentId)
          .where('enterprise_id', '=', customer.enterpriseId)
          .executeTakeFirst()) ?? null
      );
    },

    /** One traveller's data as a zip: the record (JSON) and each document's file; null: missing or another's. */
    async exportZip(customer: { enterpriseId: number }, travellerId: number): Promise<{ name: string; zip: Buffer } | null> {
      const row = await db
        .selectFrom('traveller')
        .selectAll()
        .where('traveller_id', '=', travellerId)
        .where('enterprise_id', '=', customer.enterpriseId)
        .executeTakeFirst();
      if (!row) return null;
      const docs = await documentsOf([travellerId]);
      const on = today();
      const view = travellerView(row, docs, on);
      const entries = [];
      const files: Array<{ document_id: number; file: string }> = [];
      for (const doc of docs) {
        const stored = await objects.open(doc);
        if (!stored) continue;
        const chunks: Buffer[] = [];
        for await (const chunk of stored.body) chunks.push(chunk as Buffer);
        const file = `documents/${doc.document_id}-${doc.doc_type}.${EXTENSIONS[doc.content_type] ?? 'bin'}`;
        files.push({ document_id: doc.document_id, file });
        entries.push({ name: file, data: Buffer.concat(chunks), modifiedAt: Number(doc.created_at) });
      }
      const record = {
        exported_at: new Date(deps.now()).toISOString(),
        traveller: { ...view, consent_at: new Date(view.consent_at).toISOString(), documents: undefined },
        documents: view.documents.map((d) => ({ ...d, url: undefined, file: files.find((f) => f.document_id === d.document_id)?.file ?? null })),
      };
      entries.unshift({ name: 'traveller.json', data: Buffer.from(JSON.stringify(record, null, 2), 'utf8'), modifiedAt: deps.now() });
      return { name: `常用出行人-${row.name}-${on}.zip`, zip: zipArchive(entries) };
    },
  };
}

export type TravellerService = ReturnType<typeof createTravellerService>;
