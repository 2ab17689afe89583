// The back office's review through the services and the customer's calls
// through the real app, on SQLite or PostgreSQL (TEST_DATABASE_URL): the step
// clock, taking and assigning, each file's review with its guards, the round
// ending by itself, the re-upload of no-pass items only, two operators at
// once, and who may open which file (with the access log).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/error-codes.ts';
import { STORAGE_KEYS } from '../../../common/constants.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import type { Customer } from '../../test-support/fixtures/material.ts';
import { upload } from '../../test-support/fixtures/material.ts';
import { expectRet, operator, reviewTestContext, type ReviewTestContext, T0 } from '../../test-support/fixtures/review.ts';

let ctx: ReviewTestContext;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  ctx = await reviewTestContext();
  alice = await ctx.customer();
  bob = await ctx.customer();
});
afterAll(async () => {
  await ctx?.close();
});

const version = async (userOrderId: number) => (await ctx.order(userOrderId)).version;

describe(`review (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('payment starts the step clock: entered now, due at the end of the next China working day', async () => {
    ctx.t.clock.now = T0;
    const id = await ctx.paidOrder(alice);
    const order = await ctx.order(id);
    expect(order).toMatchObject({ status: 'processing', step: 'material_review', step_entered_at: T0, review_round: 1, assignee_operator_id: null });
    // Tuesday 1 December 10:00 → 1 working day → the end of Wednesday 2 December (China time).
    expect(order.step_due_at).toBe(Date.parse('2026-12-03T00:00:00+08:00'));
  });

  it('an operator takes an unassigned order; another cannot take it; only a supervisor assigns', async () => {
    const id = await ctx.paidOrder(alice);
    const ann = operator();
    const ben = operator();
    const boss = operator('supervisor');
    const taken = await ctx.review.take(ann, id);
    expect(taken).toMatchObject({ user_order_id: id, assignee_operator_id: ann.operatorId });
    // Taking one's own again changes nothing.
    expect((await ctx.review.take(ann, id)).version).toBe(taken.version);
    await expectRet(ctx.review.take(ben, id), ErrorCode.REVIEW_ALREADY_TAKEN);
    await expectRet(ctx.review.assign(ann, id, ben.operatorId), ErrorCode.REVIEW_ASSIGN_FORBIDDEN);
    await ctx.review.assign(boss, id, ben.operatorId);
    expect((await ctx.order(id)).assignee_operator_id).toBe(ben.operatorId);
    const assigns = (await ctx.events(id)).filter((e) => e.event === 'assign');
    expect(assigns).toMatchObject([
      { actor: 'operator', actor_id: ann.operatorId, from_step: 'material_review', to_step: 'material_review' },
      { actor: 'operator', actor_id: boss.operatorId },
    ]);
    // Not paid: nobody works on it yet.
    const draft = (
      await ctx.t.call(
        '/www/order/order_create',
        {
          visa_product_id: ctx.products.withPhoto.visa_product_id,
          departure_date: '2026-12-28',
          applicants: [{ name: '王五', identity_id: 0, mobile_phone: '13900000001' }],
        },
        { token: alice.token },
      )
    ).body.body.user_order_id as number;
    await expectRet(ctx.review.take(ann, draft), ErrorCode.ORDER_STATE_INVALID);
  });

  it('refuses a review in the wrong step, of another order’s file, on a stale version, by a non-assignee, without a reason', async () => {
    const id = await ctx.paidOrder(alice);
    const other = await ctx.paidOrder(bob);
    const ann = operator();
    const ben = operator();
    await ctx.review.take(ann, id);
    const [first] = await ctx.files(id);
    const [foreign] = await ctx.files(other);
    const v = await version(id);
    await expectRet(
      ctx.review.reviewFile(ann, { user_order_id: id, file_id: foreign!.file_id, version: v, result: 'pass', reasons: [] }),
      ErrorCode.REVIEW_FILE_NOT_FOUND,
    );
    await expectRet(
      ctx.review.reviewFile(ann, { user_order_id: id, file_id: first!.file_id, version: v - 1, result: 'pass', reasons: [] }),
      ErrorCode.REVIEW_ORDER_STALE,
    );
    await expectRet(
      ctx.review.reviewFile(ben, { user_order_id: id, file_id: first!.file_id, version: v, result: 'pass', reasons: [] }),
      ErrorCode.REVIEW_NOT_ASSIGNEE,
    );
    await expectRet(
      ctx.review.reviewFile(ann, { user_order_id: id, file_id: first!.file_id, version: v, result: 'no_pass', reasons: [], memo: '  ' }),
      ErrorCode.REVIEW_NO_PASS_REASON_REQUIRED,
    );
    const passed = await ctx.review.reviewFile(ann, { user_order_id: id, file_id: first!.file_id, version: v, result: 'pass', reasons: [] });
    expect(passed).toMatchObject({ review_status: 'passed', version: v + 1, round_result: null, step: 'material_review' });
    await expectRet(
      ctx.review.reviewFile(ann, { user_order_id: id, file_id: first!.file_id, version: passed.version, result: 'pass', reasons: [] }),
      ErrorCode.REVIEW_FILE_NOT_PENDING,
    );
    // Nothing of the refused ones was written: one review event only.
    expect((await ctx.events(id)).filter((e) => e.event === 'material_review')).toHaveLength(1);
    // Wrong step: an order waiting for payment is not reviewed.
    await ctx.t.db.updateTable('user_order').set({ status: 'pending_payment', step: null }).where('user_order_id', '=', other).execute();
    const [otherFile] = await ctx.files(other);
    const error = await expectRet(
      ctx.review.reviewFile(operator('supervisor'), {
        user_order_id: other,
        file_id: otherFile!.file_id,
        version: await version(other),
        result: 'pass',
        reasons: [],
      }),
      ErrorCode.ORDER_STATE_INVALID,
    );
    expect(error.message).toMatch(/不能审核资料/);
  });

  it('the last review ends the round: a no-pass → reupload_needed; the customer replaces only no-pass items and submits; all passed → next step', async () => {
    const id = await ctx.paidOrder(alice);
    const ann = operator();
    await ctx.review.take(ann, id);
    const files = await ctx.files(id);
    expect(files.length).toBeGreaterThan(2);
    const failed = files[1]!;
    let v = await version(id);
    for (const [index, file] of files.entries()) {
      const noPass = file.file_id === failed.file_id;
      const result = await ctx.review.reviewFile(ann, {
        user_order_id: id,
        file_id: file.file_id,
        version: v,
        result: noPass ? 'no_pass' : 'pass',
        reasons: noPass ? ['blurred', 'cut_off'] : [],
        memo: noPass ? '请上传彩色扫描件' : null,
      });
      v = result.version;
      expect(result.round_result).toBe(index === files.length - 1 ? 'failed' : null);
    }
    expect(await ctx.order(id)).toMatchObject({ step: 'reupload_needed' });
    expect((await ctx.files(id)).find((f) => f.file_id === failed.file_id)).toMatchObject({
      review_status: 'no_pass',
      no_pass_memo: '模糊不清；未拍全/有裁切；请上传彩色扫描件',
    });
    const ends = (await ctx.events(id)).filter((e) => e.event.startsWith('material_review_'));
    expect(ends).toMatchObject([{ event: 'material_review_failed', from_step: 'material_review', to_step: 'reupload_needed' }]);

    // The customer sees the memo; only the no-pass item is editable.
    const list = (await ctx.t.call('/www/order/material_list', { user_order_id: id }, { token: alice.token })).body.body;
    expect(list.mode).toBe('reupload');
    const editable = list.applicants.flatMap((a: any) => [...a.electronic, ...(a.photo ? [a.photo] : [])]).filter((item: any) => item.editable);
    expect(editable).toHaveLength(1);
    expect(editable[0].files[0]).toMatchObject({
      file_id: failed.file_id,
      review_status: 'no_pass',
      no_pass_memo: '模糊不清；未拍全/有裁切；请上传彩色扫描件',
    });

    // Submitting before replacing is refused; a passed file cannot be replaced.
    expect((await ctx.t.call('/www/order/reupload_submit', { user_order_id: id }, { token: alice.token })).body.ret).toBe(ErrorCode.REUPLOAD_NO_PASS_LEFT);
    const passedFile = files.find((f) => f.file_id !== failed.file_id)!;
    const target = (file: typeof failed) =>
      file.kind === 'photo'
        ? { user_order_id: id, applicant_id: file.applicant_id, kind: 'photo', replace_file_id: file.file_id }
        : { user_order_id: id, applicant_id: file.applicant_id, material_id: file.material_id!, replace_file_id: file.file_id };
    const refused = await upload(ctx.t, alice.token, target(passedFile), { name: 'again.jpg', content: fixture('photo') });
    expect(refused.body.ret).toBe(ErrorCode.MATERIAL_ALREADY_REVIEWED);
    // Another enterprise cannot submit it (1801, as if missing).
    expect((await ctx.t.call('/www/order/reupload_submit', { user_order_id: id }, { token: bob.token })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    const replaced = await upload(ctx.t, alice.token, target(failed), { name: 'clear.jpg', content: fixture('photo') });
    expect(replaced.body.ret).toBe(0);
    // The reviewer's memo is kept until the next review (issue 27).
    expect(replaced.body.body.file).toMatchObject({
      file_id: failed.file_id,
      review_status: 'pending',
      no_pass_memo: '模糊不清；未拍全/有裁切；请上传彩色扫描件',
    });
    const submitted = await ctx.t.call('/www/order/reupload_submit', { user_order_id: id }, { token: alice.token });
    expect(submitted.body).toMatchObject({ ret: 0, body: { step: 'material_review', review_round: 2 } });
    expect((await ctx.events(id)).at(-1)).toMatchObject({
      event: 'reupload_submit',
      actor: 'customer',
      from_step: 'reupload_needed',
      to_step: 'material_review',
    });
    // A second submit: the order is in review again.
    expect((await ctx.t.call('/www/order/reupload_submit', { user_order_id: id }, { token: alice.token })).body.ret).toBe(ErrorCode.ORDER_STATE_INVALID);

    // Round 2: only the replaced file is pending; passing it moves the order on.
    const workbench = await ctx.review.workbench(ann, id);
    expect(workbench.pending_count).toBe(1);
    expect(workbench.can_review).toBe(true);
    // The view carries what this operator may fire now, by the table (a supervisor's refund not among them).
    expect(workbench.order.allowed_events).toEqual(expect.arrayContaining(['material_review', 'material_review_passed', 'material_review_failed']));
    expect(workbench.order.allowed_events).not.toContain('submit');
    expect(workbench.order.allowed_events).not.toContain('refund_create');
    const last = await ctx.review.reviewFile(ann, {
      user_order_id: id,
      file_id: failed.file_id,
      version: workbench.order.version,
      result: 'pass',
      reasons: [],
    });
    const next = workbench.product.mailed_materials ? 'awaiting_mail' : 'page_check';
    expect(last).toMatchObject({ round_result: 'passed', step: next });
    const order = await ctx.order(id);
    expect(order).toMatchObject({ step: next, review_round: 2, step_entered_at: ctx.t.clock.now });
    expect(order.step_due_at).toBeGreaterThan(ctx.t.clock.now);
    expect((await ctx.events(id)).at(-1)).toMatchObject({ event: 'material_review_passed', actor: 'operator', actor_id: ann.operatorId, to_step: next });
  });

  it('two operators reviewing the same order at once: exactly one wins, the other changes nothing', async () => {
    const id = await ctx.paidOrder(alice);
    const ann = operator();
    const boss = operator('supervisor');
    await ctx.review.take(ann, id);
    const [a, b] = await ctx.files(id);
    const v = await version(id);
    const results = await Promise.allSettled([
      ctx.review.reviewFile(ann, { user_order_id: id, file_id: a!.file_id, version: v, result: 'pass', reasons: [] }),
      ctx.review.reviewFile(boss, { user_order_id: id, file_id: b!.file_id, version: v, result: 'no_pass', reasons: ['expired'] }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason.ret).toBe(ErrorCode.REVIEW_ORDER_STALE);
    const reviewed = (await ctx.files(id)).filter((f) => f.review_status !== 'pending');
    expect(reviewed).toHaveLength(1);
    expect(await version(id)).toBe(v + 1);
  });

  it('customers see only their enterprise’s files; every operator open is logged', async () => {
    const id = await ctx.paidOrder(alice);
    await ctx.t.db.updateTable('user_order').set({ step: 'reupload_needed' }).where('user_order_id', '=', id).execute();
    const [file] = await ctx.files(id);
    await ctx.t.db
      .updateTable('order_material_file')
      .set({ review_status: 'no_pass', no_pass_memo: '模糊不清' })
      .where('file_id', '=', file!.file_id)
      .execute();
    const stored = await upload(
      ctx.t,
      alice.token,
      file!.kind === 'photo'
        ? { user_order_id: id, applicant_id: file!.applicant_id, kind: 'photo', replace_file_id: file!.file_id }
        : { user_order_id: id, applicant_id: file!.applicant_id, material_id: file!.material_id!, replace_file_id: file!.file_id },
      { name: 'scan.jpg', content: fixture('photo') },
    );
    expect(stored.body.ret).toBe(0);
    const url = `/files/material/${file!.file_id}`;
    const get = (token: string) => ctx.t.app.inject({ method: 'GET', url, headers: { cookie: `${STORAGE_KEYS.tokenCookie}=${token}` } });
    expect((await get(alice.token)).statusCode).toBe(200);
    expect((await get(bob.token)).statusCode).toBe(404);

    const ann = operator();
    const before = await ctx.t.db.selectFrom('file_access_log').selectAll().where('user_order_id', '=', id).execute();
    expect(before).toHaveLength(0);
    const seen = await ctx.t.services.material.fileFor({ kind: 'operator', operatorId: ann.operatorId, ip: '10.0.0.7' }, file!.file_id);
    expect(seen).toMatchObject({ file_id: file!.file_id, user_order_id: id });
    await ctx.t.services.material.fileFor({ kind: 'operator', operatorId: ann.operatorId, ip: '10.0.0.7' }, file!.file_id);
    const log = await ctx.t.services.material.accessLog({ userOrderId: id }, 1, 20);
    expect(log.total).toBe(2);
    expect(log.rows[0]).toMatchObject({
      operator_id: ann.operatorId,
      file_kind: 'material',
      file_id: file!.file_id,
      user_order_id: id,
      ip: '10.0.0.7',
      file_name: 'scan.jpg',
    });
    // A missing file is not logged.
    expect(await ctx.t.services.material.fileFor({ kind: 'operator', operatorId: ann.operatorId, ip: null }, 2_000_000_000)).toBeNull();
    expect((await ctx.t.services.material.accessLog({ operatorId: ann.operatorId }, 1, 20)).total).toBe(2);
  });

  it('the queue: overdue first, filters by step and assignee, search by order id, phone or name, departure at risk', async () => {
    ctx.t.clock.now = T0;
    const late = await ctx.paidOrder(await ctx.customer(), { phones: ['13711112222'] });
    ctx.t.clock.now = T0 + 2 * 86_400_000;
    // Sessions do not outlive the jump: a customer of that day.
    const fresh = await ctx.paidOrder(await ctx.customer(), { departure: '2026-12-04' });
    const ann = operator();
    await ctx.review.take(ann, fresh);
    // Thursday 3 December 10:00: the first order was due at the end of Wednesday.
    const page = await ctx.queue.queue(ann, { step: 'material_review', assignee: 'all', page: 1, page_size: 100 });
    const ids = page.list.map((row) => row.user_order_id);
    expect(ids.indexOf(late)).toBeLessThan(ids.indexOf(fresh));
    const overdue = page.list.find((row) => row.user_order_id === late)!;
    expect(overdue).toMatchObject({ overdue: true, time_in_step_ms: 2 * 86_400_000, step_label: '资料审核中' });
    expect(page.list.every((row, i) => i === 0 || !row.overdue || page.list[i - 1]!.overdue)).toBe(true);
    const mine = await ctx.queue.queue(ann, { assignee: 'me', page: 1 });
    expect(mine.list.map((row) => row.user_order_id)).toEqual([fresh]);
    expect(mine.list[0]).toMatchObject({ overdue: false, departure_at_risk: true, assignee: { operator_id: ann.operatorId } });
    expect((await ctx.queue.queue(ann, { assignee: 'none', page: 1, page_size: 100 })).list.map((r) => r.user_order_id)).not.toContain(fresh);
    expect((await ctx.queue.queue(ann, { q: '13711112222', assignee: 'all', page: 1 })).list.map((r) => r.user_order_id)).toEqual([late]);
    expect((await ctx.queue.queue(ann, { q: String(fresh), assignee: 'all', page: 1 })).list.map((r) => r.user_order_id)).toEqual([fresh]);
    const byName = await ctx.queue.queue(ann, { q: '申请人1', assignee: 'all', page: 1, page_size: 100 });
    expect(byName.list.map((r) => r.user_order_id)).toEqual(expect.arrayContaining([late, fresh]));
    expect((await ctx.queue.queue(ann, { step: 'page_check', q: String(fresh), assignee: 'all', page: 1 })).total).toBe(0);
  });
});
