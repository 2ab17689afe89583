// The file routes of the three kinds of stored file answer exactly as they
// did before the one stored-file module (decision 0033): every header of a
// customer's and an operator's open, of a 304 and of each refusal. The rows
// are written straight into the tables (the kinds' own tests go through their
// calls); the bytes are real objects in the app's storage.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../../common/constants.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { type Customer, draftOrder, materialTestContext, type MaterialTestContext, newCustomer, upload } from '../../test-support/fixtures/material.ts';
import { createLocalStorage } from './storage-local.ts';
import { newStorageKey } from './storage.ts';

let ctx: MaterialTestContext;
let alice: Customer;
let bob: Customer;
let operatorToken: string;
const ids = { material: 0, page: 0, result: 0, resultUnattached: 0 };
/** Rows of each kind whose stored object is gone. */
const gone = { material: 0, page: 0, result: 0 };
const pdf = fixture('pdf');
const png = fixture('png');
const jpeg = fixture('jpeg');
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** An object in the app's storage, as an upload would have left it. */
async function stored(bytes: Buffer, contentType: string): Promise<string> {
  const key = newStorageKey();
  await createLocalStorage(ctx.uploadDir).put(key, Readable.from([bytes]), { contentType });
  return key;
}

beforeAll(async () => {
  ctx = await materialTestContext();
  alice = await newCustomer(ctx.t);
  bob = await newCustomer(ctx.t);
  const op = await ctx.t.operator();
  operatorToken = op.token;
  const { userOrderId, applicants } = await draftOrder(ctx.t, alice, ctx.products.withPhoto.visa_product_id);
  const applicantId = applicants[0]!.applicant_id;
  const item = ctx.products.electronic(ctx.products.withPhoto.visa_product_id, 0)[0]!;
  const uploaded = await upload(
    ctx.t,
    alice.token,
    { user_order_id: userOrderId, applicant_id: applicantId, material_id: item.material_id },
    { name: '护照.jpg', content: jpeg },
  );
  expect(uploaded.body.ret).toBe(0);
  ids.material = uploaded.body.body.file.file_id;

  const at = ctx.t.clock.now;
  const common = { user_order_id: userOrderId, applicant_id: applicantId, operator_id: op.operatorId, created_at: at };
  ids.page = (
    await ctx.t.db
      .insertInto('page_check_page')
      .values({
        ...common,
        storage_key: await stored(pdf, 'application/pdf'),
        file_name: '申请表.pdf',
        content_type: 'application/pdf',
        size_bytes: pdf.length,
        sha256: sha(pdf),
      })
      .returning('page_id')
      .executeTakeFirstOrThrow()
  ).page_id;
  await ctx.t.db
    .insertInto('page_check_applicant')
    .values({ applicant_id: applicantId, user_order_id: userOrderId, status: 'published', round: 1, updated_at: at })
    .execute();

  const resultFile = async () =>
    (
      await ctx.t.db
        .insertInto('visa_result_file')
        .values({
          ...common,
          kind: 'evisa',
          storage_key: await stored(png, 'image/png'),
          file_name: 'evisa.png',
          content_type: 'image/png',
          size_bytes: png.length,
          sha256: sha(png),
          result_id: null,
          purged_at: null,
        })
        .returning('file_id')
        .executeTakeFirstOrThrow()
    ).file_id;
  ids.result = await resultFile();
  ids.resultUnattached = await resultFile();
  const { result_id } = await ctx.t.db
    .insertInto('visa_result')
    .values({
      user_order_id: userOrderId,
      applicant_id: applicantId,
      result: 'issued',
      visa_no: 'E12345678',
      valid_from: '2027-01-01',
      valid_to: '2027-06-30',
      entries: '单次',
      stay_days: 30,
      reject_reasons: null,
      reject_note: null,
      file_id: ids.result,
      operator_id: op.operatorId,
      created_at: at,
    })
    .returning('result_id')
    .executeTakeFirstOrThrow();
  await ctx.t.db.updateTable('visa_result_file').set({ result_id }).where('file_id', '=', ids.result).execute();

  const missing = { storage_key: newStorageKey(), file_name: 'gone.pdf', content_type: 'application/pdf' as const, size_bytes: 10, sha256: sha(pdf) };
  gone.material = (
    await ctx.t.db
      .insertInto('order_material_file')
      .values({
        ...missing,
        user_order_id: userOrderId,
        applicant_id: applicantId,
        material_id: item.material_id,
        kind: 'material',
        account_id: alice.accountId,
        created_at: at,
      })
      .returning('file_id')
      .executeTakeFirstOrThrow()
  ).file_id;
  gone.page = (
    await ctx.t.db
      .insertInto('page_check_page')
      .values({ ...common, ...missing })
      .returning('page_id')
      .executeTakeFirstOrThrow()
  ).page_id;
  gone.result = (
    await ctx.t.db
      .insertInto('visa_result_file')
      .values({ ...common, ...missing, kind: 'letter', result_id, purged_at: null })
      .returning('file_id')
      .executeTakeFirstOrThrow()
  ).file_id;
});

afterAll(() => ctx?.close());

/** Every header but the ones that change with each answer. */
async function open(url: string, headers: Record<string, string> = {}) {
  const response = await ctx.t.app.inject({ method: 'GET', url, headers });
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = response.headers;
  return { status: response.statusCode, headers: rest, body: response.rawPayload };
}
const asCustomer = (token: string) => ({ cookie: `${STORAGE_KEYS.tokenCookie}=${token}` });
const asOperator = () => ({ cookie: `${STORAGE_KEYS.adminTokenCookie}=${operatorToken}` });

/** What every answer carries (server/web/security-headers.ts). */
const SITE = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
};
/** A file our own pages may frame (PDFs inline). */
const FRAMED = {
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
};

describe('file routes of each kind', () => {
  it('material: the owner gets it with an ETag and a 304 after; staff get it framed, never cached', async () => {
    const own = await open(`/files/material/${ids.material}`, asCustomer(alice.token));
    expect(own.status).toBe(200);
    expect(own.body.equals(jpeg)).toBe(true);
    expect(own.headers).toMatchObject({
      ...SITE,
      'content-type': 'image/jpeg',
      'content-disposition': `inline; filename="__.jpg"; filename*=UTF-8''${encodeURIComponent('护照.jpg')}`,
      'cache-control': 'private, no-cache',
      etag: `"${sha(jpeg)}"`,
      'content-length': String(jpeg.length),
      'x-frame-options': 'DENY',
    });
    expect(own.headers['x-robots-tag']).toBeUndefined();
    expect(own.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);

    const again = await open(`/files/material/${ids.material}`, { ...asCustomer(alice.token), 'if-none-match': `"${sha(jpeg)}"` });
    expect(again.status).toBe(304);
    expect(again.headers).toMatchObject({ 'cache-control': 'private, no-cache', etag: `"${sha(jpeg)}"` });
    expect(again.body.length).toBe(0);

    const staff = await open(`/admin-files/material/${ids.material}`, asOperator());
    expect(staff.status).toBe(200);
    expect(staff.headers).toMatchObject({
      ...SITE,
      ...FRAMED,
      'content-type': 'image/jpeg',
      'cache-control': 'private, no-store',
      'x-robots-tag': 'noindex, nofollow',
      'content-length': String(jpeg.length),
    });
    expect(staff.headers.etag).toBeUndefined();
  });

  it('page-check pages and visa results: the owner gets them framed by our pages, staff never cached', async () => {
    for (const [kind, id, bytes, type] of [
      ['page-check', ids.page, pdf, 'application/pdf'],
      ['visa-result', ids.result, png, 'image/png'],
    ] as const) {
      const own = await open(`/files/${kind}/${id}`, { 'x-token': alice.token });
      expect(own.status, kind).toBe(200);
      expect(own.body.equals(bytes)).toBe(true);
      expect(own.headers).toMatchObject({ ...SITE, ...FRAMED, 'content-type': type, 'cache-control': 'private, no-cache', 'x-robots-tag': 'noindex' });
      expect(own.headers['content-length']).toBe(String(bytes.length));
      expect(own.headers.etag).toBeUndefined();
      const staff = await open(`/admin-files/${kind}/${id}`, asOperator());
      expect(staff.status).toBe(200);
      expect(staff.headers).toMatchObject({
        ...SITE,
        ...FRAMED,
        'content-type': type,
        'cache-control': 'private, no-store',
        'x-robots-tag': 'noindex, nofollow',
      });
    }
    expect((await open(`/files/page-check/${ids.page}`, asCustomer(alice.token))).headers['content-disposition']).toBe(
      `inline; filename="___.pdf"; filename*=UTF-8''${encodeURIComponent('申请表.pdf')}`,
    );
  });

  it('another enterprise, no session, a customer token on the staff route, a bad id, a file not shown: the same plain 404', async () => {
    const refusals = [
      open(`/files/material/${ids.material}`, asCustomer(bob.token)),
      open(`/files/material/${ids.material}`),
      open(`/admin-files/material/${ids.material}`, { 'x-token': alice.token }),
      open(`/files/page-check/${ids.page}`, { 'x-token': bob.token }),
      open(`/files/visa-result/${ids.result}`, { 'x-token': bob.token }),
      // Uploaded but not attached to a result: staff only.
      open(`/files/visa-result/${ids.resultUnattached}`, { 'x-token': alice.token }),
      open('/files/material/0', asCustomer(alice.token)),
      open('/files/page-check/abc', { 'x-token': alice.token }),
      open('/admin-files/visa-result/2147483648', asOperator()),
      // A row whose stored object is gone, for its owner and for staff.
      open(`/files/material/${gone.material}`, asCustomer(alice.token)),
      open(`/admin-files/material/${gone.material}`, asOperator()),
      open(`/files/page-check/${gone.page}`, asCustomer(alice.token)),
      open(`/admin-files/page-check/${gone.page}`, asOperator()),
      open(`/files/visa-result/${gone.result}`, asCustomer(alice.token)),
      open(`/admin-files/visa-result/${gone.result}`, asOperator()),
    ];
    for (const refused of await Promise.all(refusals)) {
      expect(refused.status).toBe(404);
      expect(refused.headers).toMatchObject({ ...SITE, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      expect(refused.headers.etag).toBeUndefined();
      expect(refused.headers['content-disposition']).toBeUndefined();
      // Never framed, under the site's own policy.
      expect(refused.headers['x-frame-options']).toBe('DENY');
      expect(refused.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(refused.headers['x-robots-tag'] ?? 'noindex, nofollow').toBe('noindex, nofollow');
      expect(refused.body.toString()).toBe('Not Found');
    }
    expect((await open(`/admin-files/visa-result/${ids.resultUnattached}`, asOperator())).status).toBe(200);
  });
});
