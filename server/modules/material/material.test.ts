// Uploaded materials through the real app (signed /www scope, multipart,
// local-disk storage in a temporary folder), on SQLite or PostgreSQL
// (TEST_DATABASE_URL): every guard, replace and delete, the audit rows, and
// serving files only to their owners.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../tests/fixtures/index.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { STORAGE_KEYS } from '../../../common/constants.ts';
import { signedHeaders } from '../../test-support/test-app.ts';
import {
  type Customer,
  DEPARTURE,
  draftOrder,
  materialTestContext,
  type MaterialTestContext,
  newCustomer,
  storedFiles,
  storedPlaintext,
  T0,
  upload,
} from '../../test-support/fixtures/material.ts';
import type { OrderEventName } from '../../../common/order.ts';

let ctx: MaterialTestContext;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  ctx = await materialTestContext();
  alice = await newCustomer(ctx.t);
  bob = await newCustomer(ctx.t);
});
afterAll(async () => {
  await ctx?.close();
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function events(userOrderId: number, event?: OrderEventName) {
  let query = ctx.t.db.selectFrom('order_event').selectAll().where('user_order_id', '=', userOrderId);
  if (event) query = query.where('event', '=', event);
  return query.orderBy('event_id').execute();
}

async function fileRows(userOrderId: number) {
  return ctx.t.db.selectFrom('order_material_file').selectAll().where('user_order_id', '=', userOrderId).orderBy('file_id').execute();
}

async function version(userOrderId: number) {
  return (await ctx.t.db.selectFrom('user_order').select('version').where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow()).version;
}

/** A draft order of the photo product and the first electronic item of identity 0. */
async function setup(customer = alice) {
  const order = await draftOrder(ctx.t, customer, ctx.products.withPhoto.visa_product_id);
  const items = ctx.products.electronic(ctx.products.withPhoto.visa_product_id, 0);
  return { ...order, applicant: order.applicants[0]!.applicant_id, student: order.applicants[1]!.applicant_id, item: items[0]!, items };
}

function get(url: string, cookieToken?: string, headers: Record<string, string> = {}) {
  return ctx.t.app.inject({
    method: 'GET',
    url,
    headers: { ...(cookieToken ? { cookie: `other=1; ${STORAGE_KEYS.tokenCookie}=${encodeURIComponent(cookieToken)}` } : {}), ...headers },
  });
}

describe(`uploaded materials (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('lists each applicant’s checklist of their identity, the photo spec and what is missing', async () => {
    const { userOrderId } = await setup();
    const { body } = await ctx.t.call('/www/order/material_list', { user_order_id: userOrderId }, { token: alice.token });
    expect(body.ret).toBe(0);
    const list = body.body;
    expect(list).toMatchObject({
      user_order_id: userOrderId,
      status: 'draft',
      mode: 'draft',
      departure_date: DEPARTURE,
      effect_date: null,
      max_file_bytes: 10 * 1024 * 1024,
      max_files_per_material: 10,
    });
    const photo = await ctx.t.db
      .selectFrom('photo_param')
      .selectAll()
      .where('visa_photo_id', '=', ctx.products.withPhoto.visa_photo_id)
      .executeTakeFirstOrThrow();
    expect(list.photo_spec).toEqual({
      visa_photo_id: photo.visa_photo_id,
      name: photo.name,
      width: photo.width,
      height: photo.height,
      color: photo.color,
      color_name: ['蓝色', '白色', '红色', '灰色'][photo.color],
    });
    expect(list.applicants).toHaveLength(2);
    const [employed, student] = list.applicants;
    expect(employed).toMatchObject({ identity_id: 0, identity_label: '在职人员', photo: { required: true, editable: true, files: [] } });
    expect(student).toMatchObject({ identity_id: 3, identity_label: '在校学生' });
    const catalogue = await ctx.t.db
      .selectFrom('visa_product_material')
      .selectAll()
      .where('visa_product_id', '=', ctx.products.withPhoto.visa_product_id)
      .execute();
    for (const [applicant, identity] of [
      [employed, 0],
      [student, 3],
    ] as const) {
      const own = catalogue.filter((m) => m.identity_id === identity);
      expect(applicant.electronic.map((i: any) => i.material_id).sort()).toEqual(
        own
          .filter((m) => m.attr === 0)
          .map((m) => m.material_id)
          .sort(),
      );
      expect(applicant.mailed.map((i: any) => i.material_id).sort()).toEqual(
        own
          .filter((m) => m.attr === 1)
          .map((m) => m.material_id)
          .sort(),
      );
      expect(applicant.bring.map((i: any) => i.material_id).sort()).toEqual(
        own
          .filter((m) => m.attr === 2)
          .map((m) => m.material_id)
          .sort(),
      );
    }
    const first = employed.electronic[0];
    const row = catalogue.find((m) => m.material_id === first.material_id)!;
    expect(first).toEqual({
      material_id: row.material_id,
      name: row.name,
      attention: row.attention,
      sample: row.sample,
      required: row.required === 1,
      files: [],
      editable: true,
    });
    // Every required electronic item of each applicant and both photos are missing.
    const requiredCount = catalogue.filter((m) => m.attr === 0 && m.required === 1 && (m.identity_id === 0 || m.identity_id === 3)).length;
    expect(list.missing).toHaveLength(requiredCount + 2);
    expect(list.missing.filter((m: any) => m.material_id === null).map((m: any) => m.name)).toEqual(['签证照片', '签证照片']);
  });

  it('stores a real JPEG under a random key, records it with its audit row, and the list shows it', async () => {
    const { userOrderId, applicant, item } = await setup();
    const before = await version(userOrderId);
    const jpeg = fixture('jpeg');
    const result = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { name: '../../etc/护照 首页.jpg', content: jpeg, type: 'application/octet-stream' },
    );
    expect(result.body).toMatchObject({ ret: 0, msg: 'ok' });
    const file = result.body.body.file;
    expect(file).toMatchObject({
      kind: 'material',
      material_id: item.material_id,
      file_name: '护照 首页.jpg',
      content_type: 'image/jpeg',
      size: jpeg.length,
      review_status: 'pending',
      review_status_label: '待审核',
    });
    expect(file.url).toBe(`/files/material/${file.file_id}?v=${sha(jpeg).slice(0, 16)}`);
    expect(result.body.body.replaced).toBe(false);

    const [row] = await fileRows(userOrderId);
    expect(row).toMatchObject({ applicant_id: applicant, sha256: sha(jpeg), size_bytes: jpeg.length, account_id: alice.accountId, created_at: T0 });
    // The key is random; the client's name is nowhere in the storage path.
    expect(row!.storage_key).toMatch(/^materials\/[0-9a-f]{2}\/[0-9a-f]{32}$/);
    // Encrypted at rest: the bytes on disk are not the file, opened they are (decision 0043).
    expect(readFileSync(join(ctx.uploadDir, row!.storage_key)).includes(jpeg.subarray(0, 32))).toBe(false);
    expect((await storedPlaintext(ctx.uploadDir, row!.storage_key)).equals(jpeg)).toBe(true);
    expect(storedFiles(ctx.uploadDir).some((path) => path.includes('护照') || path.endsWith('.part'))).toBe(false);

    const [event] = await events(userOrderId, 'material_upload');
    expect(event).toMatchObject({ actor: 'customer', actor_id: alice.accountId, from_status: null, to_status: null, created_at: T0 });
    expect(JSON.parse(event!.detail!)).toMatchObject({
      file_id: file.file_id,
      applicant_id: applicant,
      material_id: item.material_id,
      material_name: item.name,
      content_type: 'image/jpeg',
      size: jpeg.length,
      sha256: sha(jpeg),
    });
    // Serialised with the order's own changes: the version moved.
    expect(await version(userOrderId)).toBe(before + 1);

    const list = (await ctx.t.call('/www/order/material_list', { user_order_id: userOrderId }, { token: alice.token })).body.body;
    expect(list.applicants[0].electronic.find((i: any) => i.material_id === item.material_id).files).toEqual([file]);
    if (item.required) expect(list.missing.some((m: any) => m.applicant_id === applicant && m.material_id === item.material_id)).toBe(false);
  });

  it('accepts a PDF and a PNG, by their content whatever their names', async () => {
    const { userOrderId, applicant, item } = await setup();
    const pdf = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { name: 'statement', content: fixture('pdf'), type: 'text/plain' },
    );
    expect(pdf.body.body.file).toMatchObject({ content_type: 'application/pdf', file_name: 'statement' });
    const png = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { name: 'card.jpg', content: fixture('png') },
    );
    expect(png.body.body.file).toMatchObject({ content_type: 'image/png', file_name: 'card.jpg' });
  });

  it('refuses by content: a text file named .jpg, a PDF as the photo, an empty file — nothing stored or recorded', async () => {
    const { userOrderId, applicant, item } = await setup();
    const before = storedFiles(ctx.uploadDir);
    const target = { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id };
    const text = await upload(ctx.t, alice.token, target, { name: 'photo.jpg', content: fixture('renamedText'), type: 'image/jpeg' });
    expect(text.body).toMatchObject({ ret: ErrorCode.MATERIAL_FILE_TYPE, msg: '仅支持 JPG、PNG 图片或 PDF 文件', body: null });
    expect(text.status).toBe(200);
    const photo = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, kind: 'photo' },
      { name: 'photo.jpg', content: fixture('pdf') },
    );
    expect(photo.body).toMatchObject({ ret: ErrorCode.MATERIAL_PHOTO_TYPE, msg: '签证照片仅支持 JPG 或 PNG 图片' });
    const empty = await upload(ctx.t, alice.token, target, { name: 'empty.jpg', content: Buffer.alloc(0) });
    expect(empty.body).toMatchObject({ ret: ErrorCode.MATERIAL_FILE_EMPTY, msg: '文件为空，请重新选择' });
    // Three bytes of JPEG magic and nothing else is still a (broken) JPEG by its signature; two bytes are not.
    const tiny = await upload(ctx.t, alice.token, target, { name: 'x.jpg', content: Buffer.from([0xff, 0xd8]) });
    expect(tiny.body.ret).toBe(ErrorCode.MATERIAL_FILE_TYPE);
    expect(storedFiles(ctx.uploadDir)).toEqual(before);
    expect(await fileRows(userOrderId)).toEqual([]);
    expect(await events(userOrderId, 'material_upload')).toEqual([]);
  });

  it('refuses a file over the limit (11 MB), aborting and leaving no partial file', async () => {
    const { userOrderId, applicant, item } = await setup();
    const before = storedFiles(ctx.uploadDir);
    const big = Buffer.alloc(11 * 1024 * 1024);
    fixture('jpeg').copy(big);
    const result = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { name: 'big.jpg', content: big },
    );
    expect(result.body).toMatchObject({ ret: ErrorCode.MATERIAL_FILE_TOO_LARGE, msg: '文件过大，单个文件不能超过 10 MB' });
    expect(storedFiles(ctx.uploadDir)).toEqual(before);
    expect(await fileRows(userOrderId)).toEqual([]);
    // Exactly the limit is accepted.
    const exact = Buffer.alloc(10 * 1024 * 1024);
    fixture('jpeg').copy(exact);
    const ok = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { name: 'exact.jpg', content: exact },
    );
    expect(ok.body.ret).toBe(0);
    expect(ok.body.body.file.size).toBe(10 * 1024 * 1024);
  });

  it('answers every malformed request with a Chinese message: no file, missing fields, JSON, both or neither target', async () => {
    const { userOrderId, applicant, item } = await setup();
    const jpeg = { content: fixture('jpeg') };
    const noFile = await upload(ctx.t, alice.token, { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id });
    expect(noFile.body).toMatchObject({ ret: ErrorCode.MATERIAL_NO_FILE, msg: '请选择要上传的文件' });
    const wrongField = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { ...jpeg, field: 'attachment' },
    );
    expect(wrongField.body.ret).toBe(0); // any field name carries the file
    const noApplicant = await upload(ctx.t, alice.token, { user_order_id: userOrderId, material_id: item.material_id }, jpeg);
    expect(noApplicant.body).toMatchObject({ ret: ErrorCode.INVALID_PARAMS, msg: '缺少 applicant_id（请在文件之前发送）' });
    const noTarget = await upload(ctx.t, alice.token, { user_order_id: userOrderId, applicant_id: applicant }, jpeg);
    expect(noTarget.body).toMatchObject({ ret: ErrorCode.INVALID_PARAMS, msg: '请指定资料项（material_id），照片请传 kind=photo' });
    const both = await upload(ctx.t, alice.token, { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id, kind: 'photo' }, jpeg);
    expect(both.body.ret).toBe(ErrorCode.INVALID_PARAMS);
    const badId = await upload(ctx.t, alice.token, { user_order_id: 'abc', applicant_id: applicant, material_id: item.material_id }, jpeg);
    expect(badId.body).toMatchObject({ ret: ErrorCode.INVALID_PARAMS, msg: '上传参数错误：编号须为正整数' });
    const huge = await upload(ctx.t, alice.token, { user_order_id: '99999999999', applicant_id: applicant, material_id: item.material_id }, jpeg);
    expect(huge.body.ret).toBe(ErrorCode.INVALID_PARAMS);
    const json = await ctx.t.call('/www/order/material_upload', { user_order_id: userOrderId }, { token: alice.token });
    expect(json.body).toMatchObject({ ret: ErrorCode.UNSUPPORTED_MEDIA_TYPE, msg: '请使用 multipart/form-data 上传文件' });
    const truncated = await ctx.t.app.inject({
      method: 'POST',
      url: '/www/order/material_upload',
      headers: signedHeaders(ctx.t.clock, { token: alice.token, headers: { 'content-type': 'multipart/form-data; boundary=xyz' } }),
      payload: `--xyz\r\nContent-Disposition: form-data; name="user_order_id"\r\n\r\n${userOrderId}\r\n--xyz\r\nContent-Disposition: form-data; name="applicant_id"\r\n\r\n${applicant}\r\n--xyz\r\nContent-Disposition: form-data; name="material_id"\r\n\r\n${item.material_id}\r\n--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\xff\xd8\xff\xe0 cut here`,
    });
    expect(truncated.json()).toMatchObject({ ret: ErrorCode.MATERIAL_UPLOAD_INCOMPLETE, msg: '上传中断或数据不完整，请重试' });
    expect((await fileRows(userOrderId)).length).toBe(1);
  });

  it('checks the signature and the session before reading the body', async () => {
    const { userOrderId, applicant, item } = await setup();
    const unsigned = await ctx.t.app.inject({
      method: 'POST',
      url: '/www/order/material_upload',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--',
    });
    expect(unsigned.json().ret).toBe(ErrorCode.SIGNATURE_MISSING);
    const anonymous = await upload(
      ctx.t,
      undefined,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { content: fixture('jpeg') },
    );
    expect(anonymous).toMatchObject({ status: 401, body: { ret: ErrorCode.NOT_LOGGED_IN } });
  });

  it('answers another enterprise’s order exactly like a missing one (1801), for every call', async () => {
    const { userOrderId, applicant, item } = await setup(alice);
    const mine = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { content: fixture('jpeg') },
    );
    const fileId = mine.body.body.file.file_id;
    const target = { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id };
    const foreign = await upload(ctx.t, bob.token, target, { content: fixture('jpeg') });
    const missing = await upload(ctx.t, bob.token, { ...target, user_order_id: 2_000_000_000 }, { content: fixture('jpeg') });
    expect(foreign.body).toEqual({ ret: ErrorCode.ORDER_NOT_FOUND, msg: '订单不存在', body: null });
    expect(missing.body).toEqual(foreign.body);
    for (const [path, payload] of [
      ['/www/order/material_list', { user_order_id: userOrderId }],
      ['/www/order/material_delete', { user_order_id: userOrderId, file_id: fileId }],
      ['/www/order/effect_date_set', { user_order_id: userOrderId, effect_date: null }],
    ] as const) {
      expect((await ctx.t.call(path, payload, { token: bob.token })).body).toEqual(foreign.body);
    }
    expect((await fileRows(userOrderId)).length).toBe(1);
  });

  it('only takes electronic items of the applicant’s own checklist, and a photo only when the product asks for one', async () => {
    const { userOrderId, applicant, student } = await setup();
    const jpeg = { content: fixture('jpeg') };
    const { notElectronic, otherIdentity, otherProduct } = ctx.products;
    const mailed = await upload(ctx.t, alice.token, { user_order_id: userOrderId, applicant_id: applicant, material_id: notElectronic.material_id }, jpeg);
    expect(mailed.body).toMatchObject({ ret: ErrorCode.MATERIAL_NOT_ELECTRONIC, msg: '该资料需邮寄或赴馆提交，无需上传' });
    if (otherIdentity) {
      const wrongIdentity = await upload(
        ctx.t,
        alice.token,
        { user_order_id: userOrderId, applicant_id: applicant, material_id: otherIdentity.material_id },
        jpeg,
      );
      expect(wrongIdentity.body).toMatchObject({ ret: ErrorCode.MATERIAL_NOT_IN_CHECKLIST, msg: '该申请人的资料清单中没有这项资料' });
      const rightIdentity = await upload(
        ctx.t,
        alice.token,
        { user_order_id: userOrderId, applicant_id: student, material_id: otherIdentity.material_id },
        jpeg,
      );
      expect(rightIdentity.body.ret).toBe(0);
    }
    const foreignMaterial = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: otherProduct.material_id },
      jpeg,
    );
    expect(foreignMaterial.body.ret).toBe(ErrorCode.MATERIAL_NOT_IN_CHECKLIST);
    const other = await draftOrder(ctx.t, alice, ctx.products.withPhoto.visa_product_id);
    const foreignApplicant = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: other.applicants[0]!.applicant_id, kind: 'photo' },
      jpeg,
    );
    expect(foreignApplicant.body).toMatchObject({ ret: ErrorCode.MATERIAL_APPLICANT_NOT_FOUND, msg: '申请人不存在' });
    const noPhoto = await draftOrder(ctx.t, alice, ctx.products.withoutPhoto.visa_product_id, [0]);
    const photo = await upload(
      ctx.t,
      alice.token,
      { user_order_id: noPhoto.userOrderId, applicant_id: noPhoto.applicants[0]!.applicant_id, kind: 'photo' },
      jpeg,
    );
    expect(photo.body).toMatchObject({ ret: ErrorCode.MATERIAL_PHOTO_NOT_NEEDED, msg: '该签证产品不需要签证照片' });
    const list = (await ctx.t.call('/www/order/material_list', { user_order_id: noPhoto.userOrderId }, { token: alice.token })).body.body;
    expect(list.photo_spec).toBeNull();
    expect(list.applicants[0].photo).toBeNull();
  });

  it('keeps one photo per applicant: a second upload replaces the first and deletes its bytes', async () => {
    const { userOrderId, applicant } = await setup();
    const first = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, kind: 'photo' },
      { name: 'me.jpg', content: fixture('photo') },
    );
    expect(first.body.body.file).toMatchObject({ kind: 'photo', material_id: null, content_type: 'image/jpeg' });
    const [before] = await fileRows(userOrderId);
    const second = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, kind: 'photo' },
      { name: 'me2.png', content: fixture('png') },
    );
    expect(second.body.body).toMatchObject({
      replaced: true,
      file: { file_id: first.body.body.file.file_id, file_name: 'me2.png', content_type: 'image/png' },
    });
    const rows = await fileRows(userOrderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.storage_key).not.toBe(before!.storage_key);
    expect(existsSync(join(ctx.uploadDir, before!.storage_key))).toBe(false);
    expect((await storedPlaintext(ctx.uploadDir, rows[0]!.storage_key)).equals(fixture('png'))).toBe(true);
    expect((await events(userOrderId)).map((e) => e.event)).toEqual(['create', 'material_upload', 'material_replace']);
    expect(second.body.body.missing.some((m: any) => m.applicant_id === applicant && m.material_id === null)).toBe(false);
  });

  it('replaces a chosen file in place (same id, new content, review reset) and deletes the old bytes after the commit', async () => {
    const { userOrderId, applicant, items } = await setup();
    const [a, b] = items as [(typeof items)[number], (typeof items)[number]];
    const original = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: a.material_id },
      { name: 'old.jpg', content: fixture('jpeg') },
    );
    const fileId = original.body.body.file.file_id;
    const [old] = await fileRows(userOrderId);
    await ctx.t.db.updateTable('order_material_file').set({ review_status: 'no_pass', no_pass_memo: '模糊' }).where('file_id', '=', fileId).execute();
    const replaced = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: a.material_id, replace_file_id: fileId },
      { name: 'new.pdf', content: fixture('pdf') },
    );
    expect(replaced.body.body).toMatchObject({
      replaced: true,
      file: { file_id: fileId, file_name: 'new.pdf', content_type: 'application/pdf', review_status: 'pending', no_pass_memo: '模糊' },
    });
    const [row] = await fileRows(userOrderId);
    // The memo stays until the operator reviews the new content (issue 27).
    expect(row).toMatchObject({ file_id: fileId, sha256: sha(fixture('pdf')), review_status: 'pending', no_pass_memo: '模糊' });
    expect(existsSync(join(ctx.uploadDir, old!.storage_key))).toBe(false);
    const [event] = await events(userOrderId, 'material_replace');
    expect(JSON.parse(event!.detail!)).toMatchObject({
      file_id: fileId,
      file_name: 'new.pdf',
      replaced_file_name: 'old.jpg',
      replaced_sha256: sha(fixture('jpeg')),
    });
    // The file to replace must be this applicant's file of this item.
    const wrongItem = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: b.material_id, replace_file_id: fileId },
      { content: fixture('jpeg') },
    );
    expect(wrongItem.body).toMatchObject({ ret: ErrorCode.MATERIAL_FILE_NOT_FOUND, msg: '要替换的文件不存在' });
  });

  it('deletes a file with its audit row and its bytes; a second delete finds nothing', async () => {
    const { userOrderId, applicant, item } = await setup();
    const uploaded = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { content: fixture('jpeg') },
    );
    const fileId = uploaded.body.body.file.file_id;
    const [row] = await fileRows(userOrderId);
    const before = await version(userOrderId);
    const deleted = await ctx.t.call('/www/order/material_delete', { user_order_id: userOrderId, file_id: fileId }, { token: alice.token });
    expect(deleted.body).toMatchObject({ ret: 0, body: { file_id: fileId } });
    expect(await fileRows(userOrderId)).toEqual([]);
    expect(existsSync(join(ctx.uploadDir, row!.storage_key))).toBe(false);
    expect(await version(userOrderId)).toBe(before + 1);
    const [event] = await events(userOrderId, 'material_delete');
    expect(event).toMatchObject({ actor: 'customer', actor_id: alice.accountId });
    expect(JSON.parse(event!.detail!)).toMatchObject({ file_id: fileId, applicant_id: applicant, material_id: item.material_id, sha256: row!.sha256 });
    const again = await ctx.t.call('/www/order/material_delete', { user_order_id: userOrderId, file_id: fileId }, { token: alice.token });
    expect(again.body).toMatchObject({ ret: ErrorCode.MATERIAL_FILE_NOT_FOUND, msg: '文件不存在' });
    const other = await setup();
    const otherFile = await upload(
      ctx.t,
      alice.token,
      { user_order_id: other.userOrderId, applicant_id: other.applicant, material_id: other.item.material_id },
      { content: fixture('jpeg') },
    );
    const crossOrder = await ctx.t.call(
      '/www/order/material_delete',
      { user_order_id: userOrderId, file_id: otherFile.body.body.file.file_id },
      { token: alice.token },
    );
    expect(crossOrder.body.ret).toBe(ErrorCode.MATERIAL_FILE_NOT_FOUND);
  });

  it('holds at most 10 files per item, also when uploads race for the last places', async () => {
    const { userOrderId, applicant, item } = await setup();
    const target = { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id };
    for (let i = 0; i < 8; i += 1) expect((await upload(ctx.t, alice.token, target, { content: fixture('png') })).body.ret).toBe(0);
    const racing = await Promise.all([0, 1, 2, 3].map(() => upload(ctx.t, alice.token, target, { content: fixture('jpeg') })));
    expect(racing.map((r) => r.body.ret).sort()).toEqual([0, 0, ErrorCode.MATERIAL_TOO_MANY_FILES, ErrorCode.MATERIAL_TOO_MANY_FILES]);
    expect(racing.find((r) => r.body.ret !== 0)!.body.msg).toBe('每项资料最多上传 10 个文件');
    expect(await fileRows(userOrderId)).toHaveLength(10);
    // The refused uploads' bytes did not stay behind. (A refused upload's half-written *.part may
    // still be being removed when its answer arrives on a busy machine: waited for, briefly.)
    const keys = new Set((await ctx.t.db.selectFrom('order_material_file').select('storage_key').execute()).map((r) => r.storage_key));
    await expect.poll(() => storedFiles(ctx.uploadDir).filter((path) => !keys.has(path)), { timeout: 5_000 }).toEqual([]);
    // Replacing is still possible at the limit.
    const [first] = await fileRows(userOrderId);
    expect((await upload(ctx.t, alice.token, { ...target, replace_file_id: first!.file_id }, { content: fixture('jpeg') })).body.ret).toBe(0);
  });

  it('changes materials only in a draft; in reupload_needed only the no-pass ones', async () => {
    const { userOrderId, applicant, items } = await setup();
    const [a, b] = items as [(typeof items)[number], (typeof items)[number]];
    const put = (fields: Record<string, string | number | undefined>) =>
      upload(ctx.t, alice.token, { user_order_id: userOrderId, applicant_id: applicant, ...fields }, { content: fixture('jpeg') });
    const fileA = (await put({ material_id: a.material_id })).body.body.file.file_id;
    const fileB = (await put({ material_id: b.material_id })).body.body.file.file_id;

    await ctx.t.db.updateTable('user_order').set({ status: 'pending_payment' }).where('user_order_id', '=', userOrderId).execute();
    expect((await put({ material_id: a.material_id })).body).toMatchObject({ ret: ErrorCode.MATERIAL_ORDER_LOCKED, msg: '订单已确认，资料不能再修改' });
    expect((await ctx.t.call('/www/order/material_delete', { user_order_id: userOrderId, file_id: fileA }, { token: alice.token })).body.ret).toBe(
      ErrorCode.MATERIAL_ORDER_LOCKED,
    );
    expect((await ctx.t.call('/www/order/effect_date_set', { user_order_id: userOrderId, effect_date: null }, { token: alice.token })).body.ret).toBe(
      ErrorCode.MATERIAL_ORDER_LOCKED,
    );
    expect((await ctx.t.call('/www/order/material_list', { user_order_id: userOrderId }, { token: alice.token })).body.body.mode).toBe('closed');

    await ctx.t.db
      .updateTable('user_order')
      .set({ status: 'processing', step: 'material_review', expires_at: null })
      .where('user_order_id', '=', userOrderId)
      .execute();
    expect((await put({ material_id: a.material_id })).body).toMatchObject({ ret: ErrorCode.MATERIAL_ORDER_LOCKED, msg: '订单正在办理，资料不能再修改' });

    // An operator refused file A: the customer may replace it, add to item A, delete it — nothing else.
    await ctx.t.db.updateTable('user_order').set({ step: 'reupload_needed' }).where('user_order_id', '=', userOrderId).execute();
    await ctx.t.db
      .updateTable('order_material_file')
      .set({ review_status: 'no_pass', no_pass_memo: '照片模糊，请重新上传' })
      .where('file_id', '=', fileA)
      .execute();
    await ctx.t.db.updateTable('order_material_file').set({ review_status: 'passed' }).where('file_id', '=', fileB).execute();
    const list = (await ctx.t.call('/www/order/material_list', { user_order_id: userOrderId }, { token: alice.token })).body.body;
    expect(list.mode).toBe('reupload');
    const electronic = list.applicants[0].electronic;
    expect(electronic.find((i: any) => i.material_id === a.material_id)).toMatchObject({
      editable: true,
      files: [{ review_status: 'no_pass', review_status_label: '未通过', no_pass_memo: '照片模糊，请重新上传' }],
    });
    expect(electronic.find((i: any) => i.material_id === b.material_id).editable).toBe(false);
    expect((await put({ material_id: b.material_id })).body).toMatchObject({ ret: ErrorCode.MATERIAL_ALREADY_REVIEWED, msg: '该资料无需重新上传' });
    expect((await put({ material_id: b.material_id, replace_file_id: fileB })).body.ret).toBe(ErrorCode.MATERIAL_ALREADY_REVIEWED);
    expect((await ctx.t.call('/www/order/material_delete', { user_order_id: userOrderId, file_id: fileB }, { token: alice.token })).body.ret).toBe(
      ErrorCode.MATERIAL_ALREADY_REVIEWED,
    );
    const replaced = await put({ material_id: a.material_id, replace_file_id: fileA });
    expect(replaced.body.body.file).toMatchObject({ file_id: fileA, review_status: 'pending', no_pass_memo: '照片模糊，请重新上传' });
    // Once re-uploaded it is pending again, so no longer changeable.
    expect((await ctx.t.call('/www/order/material_delete', { user_order_id: userOrderId, file_id: fileA }, { token: alice.token })).body.ret).toBe(
      ErrorCode.MATERIAL_ALREADY_REVIEWED,
    );
    const status = await ctx.t.db.selectFrom('user_order').select(['status', 'step']).where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow();
    expect(status).toEqual({ status: 'processing', step: 'reupload_needed' });
  });

  it('refuses a cancelled order (1815), including a draft whose 24 h ran out before the sweep', async () => {
    const { userOrderId, applicant, item } = await setup();
    const target = { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id };
    // The order's 24 h are up (the sweep has not run yet).
    await ctx.t.db
      .updateTable('user_order')
      .set({ expires_at: T0 - 1 })
      .where('user_order_id', '=', userOrderId)
      .execute();
    {
      const late = await upload(ctx.t, alice.token, target, { content: fixture('jpeg') });
      expect(late.body).toMatchObject({ ret: ErrorCode.ORDER_ALREADY_CANCELLED, msg: '订单已取消' });
      const order = await ctx.t.db
        .selectFrom('user_order')
        .select(['status', 'cancel_reason'])
        .where('user_order_id', '=', userOrderId)
        .executeTakeFirstOrThrow();
      expect(order.status).toBe('cancelled');
      expect((await events(userOrderId)).map((e) => e.event)).toEqual(['create', 'expire']);
    }
    const again = await ctx.t.call('/www/order/material_list', { user_order_id: userOrderId }, { token: alice.token });
    expect(again.body.body.mode).toBe('closed');
  });

  it('sets the effect date between the order date and the departure date, with its audit row', async () => {
    const { userOrderId } = await setup();
    const set = (effect_date: unknown) => ctx.t.call('/www/order/effect_date_set', { user_order_id: userOrderId, effect_date }, { token: alice.token });
    expect((await set('2026-12-20')).body).toMatchObject({ ret: 0, body: { effect_date: '2026-12-20' } });
    const order = await ctx.t.db
      .selectFrom('user_order')
      .select(['effect_date', 'order_date'])
      .where('user_order_id', '=', userOrderId)
      .executeTakeFirstOrThrow();
    expect(order.effect_date).toBe('2026-12-20');
    const [event] = await events(userOrderId, 'effect_date');
    expect(event).toMatchObject({ actor: 'customer', actor_id: alice.accountId });
    expect(JSON.parse(event!.detail!)).toEqual({ from: null, to: '2026-12-20' });
    // The same date again writes nothing.
    expect((await set('2026-12-20')).body.ret).toBe(0);
    expect(await events(userOrderId, 'effect_date')).toHaveLength(1);
    expect((await set(order.order_date)).body.body.effect_date).toBe(order.order_date);
    expect((await set(DEPARTURE)).body.body.effect_date).toBe(DEPARTURE);
    expect((await set('2026-11-30')).body).toMatchObject({
      ret: ErrorCode.MATERIAL_EFFECT_DATE_INVALID,
      msg: `生效日期不能早于办理日期（${order.order_date}）`,
    });
    expect((await set('2026-12-29')).body).toMatchObject({ ret: ErrorCode.MATERIAL_EFFECT_DATE_INVALID, msg: `生效日期不能晚于出发日期（${DEPARTURE}）` });
    expect((await set('2026-02-30')).body).toMatchObject({ ret: ErrorCode.MATERIAL_EFFECT_DATE_INVALID, msg: '请选择正确的生效日期' });
    expect((await set(12)).body.ret).toBe(ErrorCode.INVALID_PARAMS);
    expect((await set(null)).body).toMatchObject({ ret: 0, body: { effect_date: null } });
    expect(await events(userOrderId, 'effect_date')).toHaveLength(4);
    const list = (await ctx.t.call('/www/order/material_list', { user_order_id: userOrderId }, { token: alice.token })).body.body;
    expect(list.effect_date).toBeNull();
  });

  it('serves a file only to its enterprise (cookie session), with safe headers; everyone else gets the same 404', async () => {
    const { userOrderId, applicant, item } = await setup();
    const jpeg = fixture('jpeg');
    const uploaded = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { name: '护照<首页>\u202egpj.jpg', content: jpeg },
    );
    const file = uploaded.body.body.file;
    const mine = await get(file.url, alice.token);
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(jpeg)).toBe(true);
    expect(mine.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-cache',
      'content-length': String(jpeg.length),
      etag: `"${sha(jpeg)}"`,
    });
    expect(mine.headers['content-disposition']).toBe(`inline; filename="____gpj.jpg"; filename*=UTF-8''${encodeURIComponent('护照首页gpj.jpg')}`);
    expect(mine.headers['content-encoding']).toBeUndefined();
    // Revalidation.
    expect((await get(file.url, alice.token, { 'if-none-match': `"${sha(jpeg)}"` })).statusCode).toBe(304);
    // X-Token works as well as the cookie (API clients).
    expect((await get(file.url, undefined, { 'x-token': alice.token })).statusCode).toBe(200);

    const foreign = await get(file.url, bob.token);
    const anonymous = await get(file.url);
    const missing = await get('/files/material/2000000000', alice.token);
    const garbage = await get('/files/material/..%2F..%2Fetc%2Fpasswd', alice.token);
    for (const response of [foreign, anonymous, missing, garbage]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe('Not Found');
      expect(response.headers['cache-control']).toBe('no-store');
    }
    // Deleted: gone for its owner too.
    await ctx.t.call('/www/order/material_delete', { user_order_id: userOrderId, file_id: file.file_id }, { token: alice.token });
    expect((await get(file.url, alice.token)).statusCode).toBe(404);
  });

  it('serves a PDF inline under a name ending in .pdf', async () => {
    const { userOrderId, applicant, item } = await setup();
    const uploaded = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, material_id: item.material_id },
      { name: 'statement.html', content: fixture('pdf') },
    );
    const response = await get(uploaded.body.body.file.url, alice.token);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="statement.html.pdf"; filename*=UTF-8''statement.html.pdf`);
    expect(response.rawPayload.equals(fixture('pdf'))).toBe(true);
  });
});
