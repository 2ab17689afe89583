// Travellers saved for next time (常用出行人, issue 28 part 3) through the
// signed API, on SQLite or PostgreSQL (TEST_DATABASE_URL): saving with the
// traveller's consent, their documents checked like every upload, the offers
// on an order's upload step (expired documents and old photos not offered),
// taking one (the same stored object, tagged for the operator), another
// enterprise's traveller refused exactly like a missing one, the export zip,
// deleting a traveller whose files an order still uses, and retention.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderWorkbench } from '../../../common/contracts/admin-order.ts';
import { materialList } from '../../../common/contracts/material.ts';
import { travellerDocumentUpload, travellerList, travellerOfferAccept, travellerOffers, travellerSave } from '../../../common/contracts/traveller.ts';
import { ERROR_CATALOGUE, ErrorCode } from '../../../common/error-codes.ts';
import { fixture, MB } from '../../../tests/fixtures/index.ts';
import {
  type Customer,
  draftOrder,
  materialTestContext,
  type MaterialTestContext,
  multipart,
  newCustomer,
  storedFiles,
} from '../../test-support/fixtures/material.ts';
import { signedHeaders } from '../../test-support/test-app.ts';
import { createTravellerDocumentRetention } from '../retention/traveller-documents.ts';
import { createFileStorage } from '../stored-file/open-storage.ts';

let ctx: MaterialTestContext;
let alice: Customer;
let bob: Customer;

/** The name and mobile the order's first applicant gets from draftOrder (申请人1, 13900139000). */
const PERSON = { name: '申请人1', mobile_phone: '13900139000' };

function traveller(extra: Record<string, unknown> = {}) {
  return {
    ...PERSON,
    pinyin: 'shen qing ren',
    sex: 'F',
    birth_date: '1990-05-01',
    email: 'traveller@example.com',
    identity_id: 0,
    passport_no: 'e12345678',
    passport_expiry: '2031-01-01',
    consent: true,
    ...extra,
  };
}

async function save(who: Customer, payload: Record<string, unknown>) {
  return ctx.t.call(travellerSave.path, payload, { token: who.token });
}

async function uploadDocument(who: Customer, fields: Record<string, string | number | undefined>, content: Buffer, name = 'scan.jpg') {
  const { body, contentType } = multipart(fields, { name, content });
  const response = await ctx.t.app.inject({
    method: 'POST',
    url: travellerDocumentUpload.path,
    headers: signedHeaders(ctx.t.clock, { token: who.token, headers: { 'content-type': contentType } }),
    payload: body,
  });
  const answer = response.json() as { ret: number; msg: string; body: any };
  if (answer.ret === 0) travellerDocumentUpload.result.parse(answer.body);
  return { status: response.statusCode, body: answer };
}

function get(url: string, who: Customer) {
  return ctx.t.app.inject({ method: 'GET', url, headers: { cookie: `token=${who.token}` } });
}

beforeAll(async () => {
  ctx = await materialTestContext();
  alice = await newCustomer(ctx.t);
  bob = await newCustomer(ctx.t);
});
afterAll(async () => {
  await ctx?.close();
});

describe(`travellers saved for next time (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  let travellerId = 0;

  it('refuses a save without the consent, and each broken field with its own code', async () => {
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ consent: false }, ErrorCode.TRAVELLER_CONSENT_REQUIRED],
      [{ name: '  ' }, ErrorCode.TRAVELLER_NAME_INVALID],
      [{ pinyin: '张三' }, ErrorCode.TRAVELLER_PINYIN_INVALID],
      [{ sex: 'X' }, ErrorCode.TRAVELLER_SEX_INVALID],
      [{ birth_date: '1990-02-30' }, ErrorCode.TRAVELLER_BIRTH_DATE_INVALID],
      [{ birth_date: '2099-01-01' }, ErrorCode.TRAVELLER_BIRTH_DATE_INVALID],
      [{ mobile_phone: '12345' }, ErrorCode.TRAVELLER_MOBILE_INVALID],
      [{ email: 'not-mail' }, ErrorCode.TRAVELLER_EMAIL_INVALID],
      [{ identity_id: 7 }, ErrorCode.TRAVELLER_IDENTITY_INVALID],
      [{ passport_no: 'E1' }, ErrorCode.TRAVELLER_PASSPORT_INVALID],
      [{ passport_expiry: '2031-13-01' }, ErrorCode.TRAVELLER_PASSPORT_EXPIRY_INVALID],
    ];
    for (const [change, code] of cases) {
      const answer = await save(alice, traveller(change));
      expect(answer.body.ret, JSON.stringify(change)).toBe(code);
      expect(answer.body.msg).toBe(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].msg);
    }
    const missingConsent = await save(alice, { ...traveller(), consent: undefined });
    expect(missingConsent.body.ret).toBe(ErrorCode.INVALID_PARAMS);
    expect(await ctx.t.db.selectFrom('traveller').select('traveller_id').execute()).toEqual([]);
  });

  it('saves a traveller with the consent time and account; the list is the enterprise’s only', async () => {
    const answer = await save(alice, traveller());
    expect(answer.body.ret).toBe(0);
    expect(answer.body.body).toMatchObject({
      name: '申请人1',
      pinyin: 'SHEN QING REN',
      passport_no: 'E12345678',
      identity_label: '在职人员',
      consent_at: ctx.t.clock.now,
      documents: [],
    });
    travellerId = answer.body.body.traveller_id;
    const row = await ctx.t.db.selectFrom('traveller').selectAll().where('traveller_id', '=', travellerId).executeTakeFirstOrThrow();
    expect(row.consent_account_id).toBe(alice.accountId);
    expect((await ctx.t.callContract(travellerList, {}, { token: alice.token })).result!.list).toHaveLength(1);
    expect((await ctx.t.callContract(travellerList, {}, { token: bob.token })).result!.list).toEqual([]);
    // The same name and mobile again: one traveller only.
    expect((await save(alice, traveller({ pinyin: 'OTHER' }))).body.ret).toBe(ErrorCode.TRAVELLER_DUPLICATE);
  });

  it("refuses another enterprise's traveller exactly like a missing one", async () => {
    const missing = await save(bob, { ...traveller(), traveller_id: 2_000_000 });
    const others = await save(bob, { ...traveller(), traveller_id: travellerId });
    expect(missing.body.ret).toBe(ErrorCode.TRAVELLER_NOT_FOUND);
    expect(others.body).toEqual(missing.body);
    const deleteMissing = await ctx.t.call('/www/traveller/traveller_delete', { traveller_id: 2_000_000 }, { token: bob.token });
    const deleteOthers = await ctx.t.call('/www/traveller/traveller_delete', { traveller_id: travellerId }, { token: bob.token });
    expect(deleteOthers.body).toEqual(deleteMissing.body);
    const uploadMissing = await uploadDocument(bob, { traveller_id: 2_000_000, doc_type: 'id_card' }, fixture('png'));
    const uploadOthers = await uploadDocument(bob, { traveller_id: travellerId, doc_type: 'id_card' }, fixture('png'));
    expect(uploadMissing.body.ret).toBe(ErrorCode.TRAVELLER_NOT_FOUND);
    expect(uploadOthers.body).toEqual(uploadMissing.body);
  });

  it('checks a document by content, size and its dates before keeping it', async () => {
    const before = storedFiles(ctx.uploadDir);
    const cases: Array<[Record<string, string | number>, Buffer, number]> = [
      [{ doc_type: 'passport', expiry_date: '2031-01-01' }, fixture('renamedText'), ErrorCode.MATERIAL_FILE_TYPE],
      [{ doc_type: 'photo', taken_date: '2026-11-01' }, fixture('pdf'), ErrorCode.MATERIAL_PHOTO_TYPE],
      [
        { doc_type: 'passport', expiry_date: '2031-01-01' },
        Buffer.concat([fixture('jpeg').subarray(0, 64), Buffer.alloc(11 * MB)]),
        ErrorCode.MATERIAL_FILE_TOO_LARGE,
      ],
      [{ doc_type: 'passport' }, fixture('jpeg'), ErrorCode.TRAVELLER_DOCUMENT_DATE_INVALID],
      [{ doc_type: 'photo' }, fixture('photo'), ErrorCode.TRAVELLER_DOCUMENT_DATE_INVALID],
      [{ doc_type: 'photo', taken_date: '2030-01-01' }, fixture('photo'), ErrorCode.TRAVELLER_DOCUMENT_DATE_INVALID],
      [{ doc_type: 'visa' }, fixture('jpeg'), ErrorCode.TRAVELLER_DOCUMENT_TYPE_INVALID],
    ];
    for (const [fields, content, code] of cases) {
      const answer = await uploadDocument(alice, { traveller_id: travellerId, ...fields }, content);
      expect(answer.body.ret, JSON.stringify(fields)).toBe(code);
    }
    expect(storedFiles(ctx.uploadDir)).toEqual(before);
    expect(await ctx.t.db.selectFrom('traveller_document').select('document_id').execute()).toEqual([]);
  });

  let passportId = 0;
  let oldPassportId = 0;
  let photoId = 0;
  let oldPhotoId = 0;
  let idCardId = 0;

  it('keeps documents, encrypted like every upload, served to the enterprise only', async () => {
    const passport = await uploadDocument(
      alice,
      { traveller_id: travellerId, doc_type: 'passport', taken_date: '2026-10-01', expiry_date: '2031-01-01' },
      fixture('jpeg'),
    );
    expect(passport.body.ret).toBe(0);
    expect(passport.body.body).toMatchObject({ doc_type: 'passport', doc_type_label: '护照首页', usable: true, unusable_reason: null });
    passportId = passport.body.body.document_id;
    const expired = await uploadDocument(alice, { traveller_id: travellerId, doc_type: 'passport', expiry_date: '2026-11-30' }, fixture('jpeg'), 'old.jpg');
    expect(expired.body.body).toMatchObject({ usable: false, unusable_reason: '已于 2026-11-30 过期' });
    oldPassportId = expired.body.body.document_id;
    const photo = await uploadDocument(alice, { traveller_id: travellerId, doc_type: 'photo', taken_date: '2026-10-15' }, fixture('photo'), 'photo.jpg');
    photoId = photo.body.body.document_id;
    // Taken on 2026-05-31: over six months before 2026-12-01.
    const oldPhoto = await uploadDocument(alice, { traveller_id: travellerId, doc_type: 'photo', taken_date: '2026-05-31' }, fixture('photo'), 'old-photo.jpg');
    expect(oldPhoto.body.body).toMatchObject({ usable: false, unusable_reason: '拍摄已超过六个月' });
    oldPhotoId = oldPhoto.body.body.document_id;
    const idCard = await uploadDocument(alice, { traveller_id: travellerId, doc_type: 'id_card' }, fixture('png'), 'id.png');
    idCardId = idCard.body.body.document_id;

    const row = await ctx.t.db.selectFrom('traveller_document').selectAll().where('document_id', '=', passportId).executeTakeFirstOrThrow();
    // Encrypted at rest: the stored object is not the scan.
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const onDisk = storedFiles(ctx.uploadDir).find((path) => path.endsWith(row.storage_key.split('/').pop()!))!;
    expect(readFileSync(join(ctx.uploadDir, onDisk)).includes(fixture('jpeg').subarray(0, 256))).toBe(false);

    const url = passport.body.body.url as string;
    const mine = await get(url, alice);
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(fixture('jpeg'))).toBe(true);
    const theirs = await get(url, bob);
    const none = await get('/files/traveller-document/2000000', bob);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(none.body);
  });

  let userOrderId = 0;
  let applicantId = 0;

  it('offers usable documents for the matching items of the traveller’s application, never an expired one or an old photo', async () => {
    const product = ctx.products.withPhoto;
    const order = await draftOrder(ctx.t, alice, product.visa_product_id, [0]);
    userOrderId = order.userOrderId;
    applicantId = order.applicants[0]!.applicant_id;
    const offers = (await ctx.t.callContract(travellerOffers, { user_order_id: userOrderId }, { token: alice.token })).result!;
    expect(offers.applicants).toHaveLength(1);
    const mine = offers.applicants[0]!;
    expect(mine.traveller_id).toBe(travellerId);
    const byDoc = (id: number) => mine.offers.filter((o) => o.document_id === id).map((o) => o.material_name);
    expect(byDoc(passportId)).toEqual(['护照首页扫描件']);
    expect(byDoc(idCardId)).toEqual(['身份证正反面']);
    expect(byDoc(photoId)).toEqual(['签证照片']);
    expect(byDoc(oldPassportId)).toEqual([]);
    expect(byDoc(oldPhotoId)).toEqual([]);
    expect(mine.skipped.map((s) => s.document_id).sort()).toEqual([oldPassportId, oldPhotoId].sort());
    // Another enterprise sees nothing of the order (the order's own 404).
    expect((await ctx.t.call(travellerOffers.path, { user_order_id: userOrderId }, { token: bob.token })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
  });

  it('takes a document as the same stored file (no new object), tagged for the operator; refuses what does not fit', async () => {
    const passportItem = ctx.products.electronic(ctx.products.withPhoto.visa_product_id, 0).find((m) => m.name === '护照首页扫描件')!;
    const idItem = ctx.products.electronic(ctx.products.withPhoto.visa_product_id, 0).find((m) => m.name === '身份证正反面')!;
    const accept = (document_id: number, material_id: number | null, who = alice) =>
      ctx.t.call(travellerOfferAccept.path, { user_order_id: userOrderId, applicant_id: applicantId, document_id, material_id }, { token: who.token });

    expect((await accept(oldPassportId, passportItem.material_id)).body.ret).toBe(ErrorCode.TRAVELLER_DOCUMENT_UNUSABLE);
    expect((await accept(oldPhotoId, null)).body.ret).toBe(ErrorCode.TRAVELLER_DOCUMENT_UNUSABLE);
    expect((await accept(passportId, idItem.material_id)).body.ret).toBe(ErrorCode.TRAVELLER_DOCUMENT_NOT_MATCHING);
    expect((await accept(idCardId, null)).body.ret).toBe(ErrorCode.TRAVELLER_DOCUMENT_NOT_MATCHING);
    const others = await accept(passportId, passportItem.material_id, bob);
    const missing = await ctx.t.call(
      travellerOfferAccept.path,
      { user_order_id: userOrderId, applicant_id: applicantId, document_id: 2_000_000, material_id: passportItem.material_id },
      { token: bob.token },
    );
    expect(others.body.ret).toBe(ErrorCode.TRAVELLER_DOCUMENT_NOT_FOUND);
    expect(others.body).toEqual(missing.body);

    const before = storedFiles(ctx.uploadDir);
    const taken = await accept(passportId, passportItem.material_id);
    expect(taken.body.ret).toBe(0);
    expect((await accept(photoId, null)).body.ret).toBe(0);
    expect(storedFiles(ctx.uploadDir)).toEqual(before);

    const doc = await ctx.t.db.selectFrom('traveller_document').select('storage_key').where('document_id', '=', passportId).executeTakeFirstOrThrow();
    const file = await ctx.t.db.selectFrom('order_material_file').selectAll().where('file_id', '=', taken.body.body.file_id).executeTakeFirstOrThrow();
    expect(file).toMatchObject({ storage_key: doc.storage_key, reused_document_id: passportId, kind: 'material' });

    const list = (await ctx.t.callContract(materialList, { user_order_id: userOrderId }, { token: alice.token })).result!;
    const files = list.applicants[0]!.electronic.flatMap((item) => item.files);
    expect(files.find((f) => f.file_id === file.file_id)?.reused_from_traveller).toBe(true);
    expect(list.applicants[0]!.photo!.files[0]!.reused_from_traveller).toBe(true);
    // The order's file serves the same bytes.
    const served = await get(files.find((f) => f.file_id === file.file_id)!.url, alice);
    expect(served.rawPayload.equals(fixture('jpeg'))).toBe(true);

    const offers = (await ctx.t.callContract(travellerOffers, { user_order_id: userOrderId }, { token: alice.token })).result!;
    expect(offers.applicants[0]!.offers.find((o) => o.document_id === passportId)!.used).toBe(true);

    const op = await ctx.t.operator();
    const bench = await op.callContract(adminOrderWorkbench, { user_order_id: userOrderId });
    expect(bench.body.ret).toBe(0);
    const reviewFiles = JSON.stringify(bench.body.body);
    expect(reviewFiles).toContain('"reused_from_traveller":true');
  });

  it("deleting the order's reused file keeps the traveller's document", async () => {
    const doc = await ctx.t.db.selectFrom('traveller_document').select('storage_key').where('document_id', '=', photoId).executeTakeFirstOrThrow();
    const photoFile = await ctx.t.db
      .selectFrom('order_material_file')
      .select('file_id')
      .where('user_order_id', '=', userOrderId)
      .where('kind', '=', 'photo')
      .executeTakeFirstOrThrow();
    const removed = await ctx.t.call('/www/order/material_delete', { user_order_id: userOrderId, file_id: photoFile.file_id }, { token: alice.token });
    expect(removed.body.ret).toBe(0);
    const docs = (await ctx.t.callContract(travellerList, {}, { token: alice.token })).result!.list[0]!.documents;
    const photo = docs.find((d) => d.document_id === photoId)!;
    expect((await get(photo.url, alice)).statusCode).toBe(200);
    expect(doc.storage_key).toBeTruthy();
  });

  it('exports one traveller as a zip of the record and the files', async () => {
    const answer = await get(`/files/traveller-export/${travellerId}`, alice);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/zip');
    const zip = answer.rawPayload;
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.includes(Buffer.from('traveller.json'))).toBe(true);
    expect(zip.includes(Buffer.from('"pinyin": "SHEN QING REN"'))).toBe(true);
    expect(zip.includes(Buffer.from(`documents/${passportId}-passport.jpg`))).toBe(true);
    expect(zip.includes(fixture('jpeg'))).toBe(true);
    const theirs = await get(`/files/traveller-export/${travellerId}`, bob);
    expect(theirs.statusCode).toBe(404);
  });

  it('deletes a traveller and their documents; files an order still uses stay with it and the answer says how many', async () => {
    const used = await ctx.t.db.selectFrom('traveller_document').select('storage_key').where('document_id', '=', passportId).executeTakeFirstOrThrow();
    const unused = await ctx.t.db.selectFrom('traveller_document').select('storage_key').where('document_id', '=', idCardId).executeTakeFirstOrThrow();
    const answer = await ctx.t.call('/www/traveller/traveller_delete', { traveller_id: travellerId }, { token: alice.token });
    expect(answer.body.ret).toBe(0);
    expect(answer.body.body).toEqual({ traveller_id: travellerId, documents_deleted: 4, documents_kept_for_orders: 1 });
    expect(await ctx.t.db.selectFrom('traveller_document').select('document_id').where('traveller_id', '=', travellerId).execute()).toEqual([]);
    const onDisk = storedFiles(ctx.uploadDir).join('\n');
    expect(onDisk).toContain(used.storage_key.split('/').pop()!);
    expect(onDisk).not.toContain(unused.storage_key.split('/').pop()!);
    // The order's file is still served.
    const file = await ctx.t.db
      .selectFrom('order_material_file')
      .select(['file_id', 'sha256'])
      .where('storage_key', '=', used.storage_key)
      .executeTakeFirstOrThrow();
    expect((await get(`/files/material/${file.file_id}`, alice)).statusCode).toBe(200);
  });

  it('retention deletes documents RETENTION_DAYS after they stopped being usable, keeping objects an order uses', async () => {
    const saved = await save(alice, traveller({ name: '保留测试', mobile_phone: '13700137000' }));
    const id = saved.body.body.traveller_id as number;
    const expiring = await uploadDocument(alice, { traveller_id: id, doc_type: 'passport', expiry_date: '2026-12-10' }, fixture('jpeg'));
    const lasting = await uploadDocument(alice, { traveller_id: id, doc_type: 'id_card', expiry_date: '2040-01-01' }, fixture('png'));
    const expiringKey = (
      await ctx.t.db.selectFrom('traveller_document').select('storage_key').where('document_id', '=', expiring.body.body.document_id).executeTakeFirstOrThrow()
    ).storage_key;
    const job = createTravellerDocumentRetention(ctx.t.db, {
      storage: createFileStorage(ctx.database.config),
      now: () => ctx.t.clock.now,
      retentionDays: 30,
      log: { info: () => undefined },
    });
    // 2026-12-10 + 30 days = 2027-01-09: nothing yet on 2027-01-09, the passport on 2027-01-11.
    const at = (date: string) => Date.parse(`${date}T02:00:00Z`);
    ctx.t.clock.now = at('2027-01-09');
    expect((await job.runOnce()).documents).toBe(0);
    ctx.t.clock.now = at('2027-01-11');
    expect(await job.runOnce()).toEqual({ documents: 1, objects: 1 });
    const left = await ctx.t.db.selectFrom('traveller_document').select('document_id').where('traveller_id', '=', id).execute();
    expect(left.map((r) => r.document_id)).toEqual([lasting.body.body.document_id]);
    expect(storedFiles(ctx.uploadDir).join('\n')).not.toContain(expiringKey.split('/').pop()!);
  });
});
