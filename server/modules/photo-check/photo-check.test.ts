// The visa photo check at upload (issue 28) through the real app, on SQLite or
// PostgreSQL (TEST_DATABASE_URL): a photo with the wrong background is
// processed and the customer keeps the processed one (or the original); a
// photo without a face is said to fail at once; bytes that are not a picture
// are refused. The detector runs a few times only (a portrait is made from a
// sample face that ships in @vladmandic/face-api, bench/photo-set).
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePortrait } from '../../../bench/photo-set/generate.ts';
import { adminOrderWorkbench } from '../../../common/contracts/admin-order.ts';
import { photoChoice } from '../../../common/contracts/photo-check.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import {
  type Customer,
  draftOrder,
  materialTestContext,
  type MaterialTestContext,
  newCustomer,
  storedFiles,
  storedPlaintext,
  upload,
} from '../../test-support/fixtures/material.ts';

let ctx: MaterialTestContext;
let alice: Customer;
let bob: Customer;
let bluePortrait: Buffer;

beforeAll(async () => {
  ctx = await materialTestContext();
  alice = await newCustomer(ctx.t);
  bob = await newCustomer(ctx.t);
  bluePortrait = await samplePortrait('blue');
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function photoOrder(customer = alice) {
  const order = await draftOrder(ctx.t, customer, ctx.products.withPhoto.visa_product_id, [0]);
  return { userOrderId: order.userOrderId, applicant: order.applicants[0]!.applicant_id };
}

async function choose(token: string, payload: { user_order_id: number; file_id: number; choice: string }) {
  const answer = (await ctx.t.call(photoChoice.path, payload, { token })).body;
  if (answer.ret === 0) photoChoice.result.parse(answer.body);
  return answer;
}

describe(`visa photo check at upload (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('processes a photo with a blue background for a white rule, shows what was done, and the customer keeps the processed one', async () => {
    const { userOrderId, applicant } = await photoOrder();
    const result = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, kind: 'photo' },
      {
        name: '自拍.jpg',
        content: bluePortrait,
        type: 'image/jpeg',
      },
    );
    expect(result.body.ret).toBe(0);
    const check = result.body.body.photo_check;
    expect(check).toMatchObject({
      verdict: 'fixed',
      verdict_label: '可自动处理',
      choice: null,
      problems: [],
      rule: { color_name: '白色', width: 35, height: 45 },
    });
    expect(check.fixes).toContain('背景替换为白色');
    expect(check.processed_preview).toMatch(/^data:image\/jpeg;base64,/);
    const processed = Buffer.from(check.processed_preview.slice('data:image/jpeg;base64,'.length), 'base64');
    const meta = await sharp(processed).metadata();
    // 35×45 mm at 300 dpi; the background's corner is white now.
    expect([meta.width, meta.height, meta.density]).toEqual([413, 531, 300]);
    const corner = await sharp(await sharp(processed).extract({ left: 2, top: 2, width: 8, height: 8 }).toBuffer()).stats();
    for (const channel of corner.channels.slice(0, 3)) expect(channel.mean).toBeGreaterThan(245);

    // The upload page reads the same check with the list.
    const list = (await ctx.t.call('/www/order/material_list', { user_order_id: userOrderId }, { token: alice.token })).body.body;
    expect(list.applicants[0].photo.check).toMatchObject({ file_id: result.body.body.file.file_id, verdict: 'fixed', choice: null });

    // Another enterprise cannot choose: the same answer as a missing order.
    const fileId = result.body.body.file.file_id as number;
    expect((await choose(bob.token, { user_order_id: userOrderId, file_id: fileId, choice: 'processed' })).ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    expect((await choose(alice.token, { user_order_id: userOrderId, file_id: fileId, choice: 'maybe' })).ret).toBe(ErrorCode.INVALID_PARAMS);

    const chosen = await choose(alice.token, { user_order_id: userOrderId, file_id: fileId, choice: 'processed' });
    expect(chosen).toMatchObject({ ret: 0, body: { check: { verdict: 'fixed', choice: 'processed', processed_preview: null } } });
    const row = await ctx.t.db.selectFrom('order_material_file').selectAll().where('file_id', '=', fileId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      file_name: '自拍（已处理）.jpg',
      content_type: 'image/jpeg',
      sha256: sha(processed),
      size_bytes: processed.length,
      review_status: 'pending',
    });
    // The stored object is the processed photo, encrypted like every stored file; the original is gone.
    expect(sha(await storedPlaintext(ctx.uploadDir, row.storage_key))).toBe(sha(processed));
    expect(storedFiles(ctx.uploadDir).map((key) => key.replace(/\\/g, '/'))).toContain(row.storage_key);
    const events = await ctx.t.db.selectFrom('order_event').select(['event', 'detail']).where('user_order_id', '=', userOrderId).orderBy('event_id').execute();
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['material_upload', 'material_replace']));

    // Once only.
    expect((await choose(alice.token, { user_order_id: userOrderId, file_id: fileId, choice: 'original' })).ret).toBe(ErrorCode.PHOTO_CHOICE_CLOSED);

    // The operator's review shows the verdict beside the photo.
    const operator = await ctx.t.operator();
    const bench = (await operator.callContract(adminOrderWorkbench, { user_order_id: userOrderId })).result!;
    const photoFile = bench.applicants[0]!.items.find((item) => item.material_id === null)!.files[0]!;
    expect(photoFile.photo_check).toBe('照片检测：可自动处理（客户已采用处理后的照片）：' + check.fixes.join('、'));
  }, 60_000);

  it('keeps the original when the customer says so, and a photo without a face fails at once with its reason', async () => {
    const { userOrderId, applicant } = await photoOrder();
    const first = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, kind: 'photo' },
      {
        name: 'photo.jpg',
        content: bluePortrait,
        type: 'image/jpeg',
      },
    );
    const fileId = first.body.body.file.file_id as number;
    const before = await ctx.t.db.selectFrom('order_material_file').selectAll().where('file_id', '=', fileId).executeTakeFirstOrThrow();
    const processedKey = (await ctx.t.db.selectFrom('photo_check').select('processed_key').where('file_id', '=', fileId).executeTakeFirstOrThrow())
      .processed_key!;
    const kept = await choose(alice.token, { user_order_id: userOrderId, file_id: fileId, choice: 'original' });
    expect(kept).toMatchObject({ ret: 0, body: { check: { choice: 'original' } } });
    const after = await ctx.t.db.selectFrom('order_material_file').selectAll().where('file_id', '=', fileId).executeTakeFirstOrThrow();
    expect(after.sha256).toBe(before.sha256);
    expect(storedFiles(ctx.uploadDir).map((key) => key.replace(/\\/g, '/'))).not.toContain(processedKey);

    // A new photo (no face in it) replaces the file: its own check, failed, with the reason in Chinese.
    const noFace = await upload(
      ctx.t,
      alice.token,
      { user_order_id: userOrderId, applicant_id: applicant, kind: 'photo' },
      {
        name: 'wall.jpg',
        content: fixture('photo'),
        type: 'image/jpeg',
      },
    );
    expect(noFace.body.ret).toBe(0);
    expect(noFace.body.body).toMatchObject({
      replaced: true,
      photo_check: { verdict: 'fail', verdict_label: '照片不合格', fixes: [], processed_preview: null },
    });
    expect(noFace.body.body.photo_check.problems[0]).toMatch(/未检测到人脸/);
    expect(await ctx.t.db.selectFrom('photo_check').select('file_id').where('user_order_id', '=', userOrderId).execute()).toHaveLength(1);
    // Nothing to choose for a failed photo.
    expect((await choose(alice.token, { user_order_id: userOrderId, file_id: fileId, choice: 'processed' })).ret).toBe(ErrorCode.PHOTO_CHECK_NOT_FOUND);

    // Deleting the photo deletes its check.
    const removed = await ctx.t.call('/www/order/material_delete', { user_order_id: userOrderId, file_id: fileId }, { token: alice.token });
    expect(removed.body.ret).toBe(0);
    expect(await ctx.t.db.selectFrom('photo_check').select('file_id').where('file_id', '=', fileId).execute()).toHaveLength(0);
  }, 60_000);

  it('refuses what is not a picture: text, a PDF, a broken JPEG, too many pixels — nothing is stored', async () => {
    const { userOrderId, applicant } = await photoOrder();
    const stored = storedFiles(ctx.uploadDir).length;
    const send = (name: string, content: Buffer) =>
      upload(ctx.t, alice.token, { user_order_id: userOrderId, applicant_id: applicant, kind: 'photo' }, { name, content, type: 'image/jpeg' });

    expect((await send('text.jpg', fixture('renamedText'))).body.ret).toBe(ErrorCode.MATERIAL_PHOTO_TYPE);
    expect((await send('statement.jpg', fixture('pdf'))).body).toMatchObject({ ret: ErrorCode.MATERIAL_PHOTO_TYPE, msg: '签证照片仅支持 JPG 或 PNG 图片' });
    // A JPEG's first bytes, then nothing a decoder can read.
    const broken = Buffer.concat([fixture('photo').subarray(0, 64), Buffer.alloc(2048, 0x41)]);
    expect((await send('broken.jpg', broken)).body).toMatchObject({ ret: ErrorCode.PHOTO_UNREADABLE, msg: '照片无法读取，请重新拍摄或另存为 JPG/PNG 后上传' });
    // 8000 × 6000 of one colour: a small file of 48 million pixels.
    const huge = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#ffffff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect((await send('huge.png', huge)).body).toMatchObject({ ret: ErrorCode.PHOTO_TOO_MANY_PIXELS, msg: '照片像素过多，请上传不超过 4000 万像素的照片' });

    expect(storedFiles(ctx.uploadDir)).toHaveLength(stored);
    expect(await ctx.t.db.selectFrom('order_material_file').select('file_id').where('user_order_id', '=', userOrderId).execute()).toHaveLength(0);
    // A choice for a file that is not there.
    expect((await choose(alice.token, { user_order_id: userOrderId, file_id: 999_999, choice: 'processed' })).ret).toBe(ErrorCode.PHOTO_CHECK_NOT_FOUND);
  }, 60_000);
});
