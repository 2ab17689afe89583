// The page check through the real app (signed /www and /admin-api calls,
// multipart page uploads, the file routes) on SQLite or PostgreSQL: the
// guards of every call (wrong step, another enterprise, stale version, file
// content and size), a correction round with a republication, the notices,
// page_check_done with and without an interview, and the operator's submit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOrderSubmit,
  adminPageCheckDetail,
  adminPageCheckPageDelete,
  adminPageCheckPublish,
  adminPageCheckUpload,
  pageCheckConfirm,
  pageCheckCorrection,
  pageCheckDetail,
} from '../../../common/contracts/page-check.ts';
import { adminOrderWorkbench } from '../../../common/contracts/admin-order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { chinaDate } from '../../../common/order.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { toJson } from '../../db/json.ts';
import { signedHeaders } from '../../test-support/test-app.ts';
import { type Customer, multipart } from '../../test-support/fixtures/material.ts';
import { reviewTestContext, type ReviewTestContext } from '../../test-support/fixtures/review.ts';

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

type Op = Awaited<ReturnType<ReviewTestContext['t']['operator']>>;

/** A paid order put straight into page_check (the earlier stages are other modules' tests), taken by `op`. */
async function orderInPageCheck(op: Op, options: { interview?: boolean } = {}) {
  const id = await ctx.paidOrder(alice);
  await ctx.t.db
    .updateTable('user_order')
    .set({ step: 'page_check', assignee_operator_id: op.operatorId, need_interview: options.interview ? 1 : 0 })
    .where('user_order_id', '=', id)
    .execute();
  const applicants = await ctx.t.db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', id).orderBy('sort').execute();
  return { id, applicants: applicants.map((a) => a.applicant_id) };
}

async function uploadPage(token: string, fields: Record<string, string | number>, content: Buffer, name = 'form.pdf') {
  const { body, contentType } = multipart(fields, { content, name, type: 'application/pdf' });
  const response = await ctx.t.app.inject({
    method: 'POST',
    url: adminPageCheckUpload.path,
    headers: signedHeaders(ctx.t.clock, { token, headers: { 'content-type': contentType } }),
    payload: body,
  });
  const answer = response.json() as { ret: number; msg: string; body: any };
  if (answer.ret === 0) adminPageCheckUpload.result.parse(answer.body);
  return answer;
}

async function version(id: number) {
  return (await ctx.order(id)).version;
}

async function notices(id: number) {
  return ctx.t.db
    .selectFrom('notice')
    .select(['kind', 'recipient_kind', 'recipient_id', 'link'])
    .where('user_order_id', '=', id)
    .orderBy('notice_id')
    .execute();
}

describe(`page check (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('uploads checked by content and size; publish, a correction round, republish, confirm all → waits for submit; submit → submitted', async () => {
    const op = await ctx.t.operator();
    const { id, applicants } = await orderInPageCheck(op);
    const [first, second] = applicants as [number, number];

    // Content: a text file named .pdf, an empty file; the size limit of the customers' uploads.
    expect((await uploadPage(op.token, { user_order_id: id, applicant_id: first }, fixture('renamedText'))).ret).toBe(ErrorCode.MATERIAL_FILE_TYPE);
    expect((await uploadPage(op.token, { user_order_id: id, applicant_id: first }, Buffer.alloc(0))).ret).toBe(ErrorCode.MATERIAL_FILE_EMPTY);
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(ctx.database.config.UPLOAD_MAX_BYTES)]);
    expect((await uploadPage(op.token, { user_order_id: id, applicant_id: first }, big)).ret).toBe(ErrorCode.MATERIAL_FILE_TOO_LARGE);
    // A customer token cannot upload; another order's applicant is refused.
    expect((await uploadPage(alice.token, { user_order_id: id, applicant_id: first }, fixture('pdf'))).ret).toBe(ErrorCode.NOT_LOGGED_IN);
    expect((await uploadPage(op.token, { user_order_id: id, applicant_id: 999_999 }, fixture('pdf'))).ret).toBe(ErrorCode.PAGE_CHECK_APPLICANT_NOT_FOUND);

    const pdf = await uploadPage(op.token, { user_order_id: id, applicant_id: first }, fixture('pdf'), '申请表.pdf');
    expect(pdf).toMatchObject({ ret: 0, body: { content_type: 'application/pdf', status: 'draft' } });
    const jpg = await uploadPage(op.token, { user_order_id: id, applicant_id: first }, fixture('jpeg'), 'page2.jpg');
    expect(jpg.body).toMatchObject({ content_type: 'image/jpeg' });
    const extra = await uploadPage(op.token, { user_order_id: id, applicant_id: second }, fixture('png'), 'extra.png');
    expect((await op.callContract(adminPageCheckPageDelete, { user_order_id: id, page_id: extra.body.page_id })).result).toEqual({
      page_id: extra.body.page_id,
    });
    await uploadPage(op.token, { user_order_id: id, applicant_id: second }, fixture('png'), 'second.png');

    // Nothing shown to the customer before publishing; the page file is 404 for them.
    const before = (await ctx.t.callContract(pageCheckDetail, { user_order_id: id }, { token: alice.token })).result!;
    expect(before.applicants.map((a) => [a.status, a.pages.length])).toEqual([
      ['draft', 0],
      ['draft', 0],
    ]);
    // Unpublished pages are nothing the customer may decide on: no page-check event for them.
    expect(before.applicants.map((a) => a.allowed_events)).toEqual([[], []]);
    expect((await ctx.t.app.inject({ method: 'GET', url: `/files/page-check/${pdf.body.page_id}`, headers: { 'x-token': alice.token } })).statusCode).toBe(404);

    // Publish: stale version refused, then both applicants; the customer is told.
    expect((await op.callContract(adminPageCheckPublish, { user_order_id: id, applicant_id: first, version: 0 })).body.ret).toBe(ErrorCode.REVIEW_ORDER_STALE);
    const published = await op.callContract(adminPageCheckPublish, { user_order_id: id, applicant_id: first, version: await version(id) });
    expect(published.result).toMatchObject({ applicant_id: first, round: 1 });
    expect((await op.callContract(adminPageCheckPublish, { user_order_id: id, applicant_id: first, version: await version(id) })).body.ret).toBe(
      ErrorCode.PAGE_CHECK_LOCKED,
    );
    expect((await uploadPage(op.token, { user_order_id: id, applicant_id: first }, fixture('pdf'))).ret).toBe(ErrorCode.PAGE_CHECK_LOCKED);
    await op.callContract(adminPageCheckPublish, { user_order_id: id, applicant_id: second, version: await version(id) });
    expect((await notices(id)).filter((n) => n.kind === 'page_check_publish')).toEqual([
      { kind: 'page_check_publish', recipient_kind: 'customer', recipient_id: alice.accountId, link: `/order/order-page-check/${id}` },
      { kind: 'page_check_publish', recipient_kind: 'customer', recipient_id: alice.accountId, link: `/order/order-page-check/${id}` },
    ]);

    // The customer reads the pages (served like their own files); another enterprise sees nothing.
    const view = (await ctx.t.callContract(pageCheckDetail, { user_order_id: id }, { token: alice.token })).result!;
    expect(view.applicants[0]!.pages.map((p) => p.content_type)).toEqual(['application/pdf', 'image/jpeg']);
    // Published pages: the table lets the customer confirm them or send them back, per applicant.
    expect(view.applicants.map((a) => a.allowed_events)).toEqual([
      ['page_check_confirm', 'page_check_correction'],
      ['page_check_confirm', 'page_check_correction'],
    ]);
    const served = await ctx.t.app.inject({ method: 'GET', url: view.applicants[0]!.pages[0]!.url, headers: { 'x-token': alice.token } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.rawPayload.equals(fixture('pdf'))).toBe(true);
    expect((await ctx.t.app.inject({ method: 'GET', url: view.applicants[0]!.pages[0]!.url, headers: { 'x-token': bob.token } })).statusCode).toBe(404);
    expect((await ctx.t.callContract(pageCheckDetail, { user_order_id: id }, { token: bob.token })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    expect((await ctx.t.callContract(pageCheckConfirm, { user_order_id: id, applicant_id: first, version: view.version }, { token: bob.token })).body.ret).toBe(
      ErrorCode.ORDER_NOT_FOUND,
    );
    // The operator's file route logs the open.
    const adminServed = await ctx.t.app.inject({ method: 'GET', url: `/admin-files/page-check/${pdf.body.page_id}`, headers: { 'x-token': op.token } });
    expect(adminServed.statusCode).toBe(200);
    const logged = await ctx.t.db.selectFrom('file_access_log').select(['file_kind', 'file_id']).where('user_order_id', '=', id).execute();
    expect(logged).toEqual([{ file_kind: 'page_check', file_id: pdf.body.page_id }]);

    // A correction on the first applicant's PDF page 2: a comment is needed, on a page of that applicant.
    const pdfPage = view.applicants[0]!.pages[0]!.page_id;
    const otherPage = view.applicants[1]!.pages[0]!.page_id;
    const ask = (comments: Array<{ page_id: number; page_no?: number; comment: string }>, v = view.version) =>
      ctx.t.callContract(pageCheckCorrection, { user_order_id: id, applicant_id: first, version: v, comments }, { token: alice.token });
    expect((await ask([{ page_id: pdfPage, comment: '   ' }])).body.ret).toBe(ErrorCode.PAGE_CHECK_COMMENT_REQUIRED);
    expect((await ask([{ page_id: otherPage, comment: '姓名拼写错误' }])).body.ret).toBe(ErrorCode.PAGE_CHECK_PAGE_NOT_FOUND);
    expect((await ask([{ page_id: pdfPage, comment: '姓名拼写错误' }], view.version - 1)).body.ret).toBe(ErrorCode.REVIEW_ORDER_STALE);
    const asked = await ask([{ page_id: pdfPage, page_no: 2, comment: '护照号码少了一位' }]);
    expect(asked.result).toMatchObject({ applicant_id: first, status: 'correction', step: 'page_check', all_confirmed: false });
    // Sent back: nothing more for the customer on that applicant; the operator may publish again.
    const afterAsk = (await ctx.t.callContract(pageCheckDetail, { user_order_id: id }, { token: alice.token })).result!;
    expect(afterAsk.applicants.map((a) => a.allowed_events)).toEqual([[], ['page_check_confirm', 'page_check_correction']]);
    const opView = (await op.callContract(adminPageCheckDetail, { user_order_id: id })).result!;
    expect(opView.applicants.map((a) => a.allowed_events)).toEqual([['page_check_publish'], []]);
    const assigneeNotice = (await notices(id)).find((n) => n.kind === 'page_check_correction');
    expect(assigneeNotice).toEqual({ kind: 'page_check_correction', recipient_kind: 'operator', recipient_id: op.operatorId, link: `/admin/orders/${id}` });
    // Confirming a page set under correction is refused.
    expect(
      (await ctx.t.callContract(pageCheckConfirm, { user_order_id: id, applicant_id: first, version: asked.result!.version }, { token: alice.token })).body.ret,
    ).toBe(ErrorCode.PAGE_CHECK_NOT_PUBLISHED);

    // The operator sees the comment, replaces the PDF and republishes (round 2).
    const bench = (await op.callContract(adminPageCheckDetail, { user_order_id: id })).result!;
    expect(bench.applicants[0]!.comments).toMatchObject([
      { page_id: pdfPage, page_no: 2, round: 1, comment: '护照号码少了一位', page_label: '第 1 页（申请表.pdf），PDF 第 2 页' },
    ]);
    expect(bench).toMatchObject({ can_edit: true, can_submit: false });
    await op.callContract(adminPageCheckPageDelete, { user_order_id: id, page_id: pdfPage });
    await uploadPage(op.token, { user_order_id: id, applicant_id: first }, fixture('pdf'), '申请表-修改.pdf');
    expect((await op.callContract(adminPageCheckPublish, { user_order_id: id, applicant_id: first, version: bench.version })).result).toMatchObject({
      round: 2,
    });

    // Submit before everyone confirmed is refused.
    expect(
      (await op.callContract(adminOrderSubmit, { user_order_id: id, version: await version(id), submitted_date: chinaDate(ctx.t.clock.now) })).body.ret,
    ).toBe(ErrorCode.PAGE_CHECK_NOT_ALL_CONFIRMED);

    // The customer confirms both; the last one ends the check (no interview: the order waits in page_check).
    const fresh = (await ctx.t.callContract(pageCheckDetail, { user_order_id: id }, { token: alice.token })).result!;
    const one = await ctx.t.callContract(pageCheckConfirm, { user_order_id: id, applicant_id: first, version: fresh.version }, { token: alice.token });
    expect(one.result).toMatchObject({ status: 'confirmed', all_confirmed: false });
    const two = await ctx.t.callContract(pageCheckConfirm, { user_order_id: id, applicant_id: second, version: one.result!.version }, { token: alice.token });
    expect(two.result).toMatchObject({ status: 'confirmed', all_confirmed: true, step: 'page_check' });
    const events = (await ctx.events(id)).map((e) => e.event);
    expect(events.slice(-3)).toEqual(['page_check_confirm', 'page_check_confirm', 'page_check_done']);
    expect((await notices(id)).at(-1)).toMatchObject({ kind: 'page_check_done', recipient_kind: 'operator', recipient_id: op.operatorId });
    // Confirmed pages are locked.
    expect((await uploadPage(op.token, { user_order_id: id, applicant_id: first }, fixture('pdf'))).ret).toBe(ErrorCode.PAGE_CHECK_LOCKED);

    // Submit: another operator (not the assignee) refused; a date in the future or before payment refused; then submitted.
    const other = await ctx.t.operator();
    const v = await version(id);
    const today = chinaDate(ctx.t.clock.now);
    expect((await other.callContract(adminOrderSubmit, { user_order_id: id, version: v, submitted_date: today })).body.ret).toBe(ErrorCode.REVIEW_NOT_ASSIGNEE);
    expect((await op.callContract(adminOrderSubmit, { user_order_id: id, version: v, submitted_date: '2999-01-01' })).body.ret).toBe(
      ErrorCode.PAGE_CHECK_SUBMIT_DATE_INVALID,
    );
    expect((await op.callContract(adminOrderSubmit, { user_order_id: id, version: v, submitted_date: '2020-01-01' })).body.ret).toBe(
      ErrorCode.PAGE_CHECK_SUBMIT_DATE_INVALID,
    );
    expect((await op.callContract(adminOrderSubmit, { user_order_id: id, version: v, submitted_date: '2026-02-30' })).body.ret).toBe(
      ErrorCode.PAGE_CHECK_SUBMIT_DATE_INVALID,
    );
    expect((await op.callContract(adminOrderSubmit, { user_order_id: id, version: v - 1, submitted_date: today })).body.ret).toBe(ErrorCode.REVIEW_ORDER_STALE);
    const submitted = await op.callContract(adminOrderSubmit, { user_order_id: id, version: v, submitted_date: today });
    expect(submitted.result).toMatchObject({ step: 'submitted', submitted_date: today });
    expect(await ctx.order(id)).toMatchObject({ status: 'processing', step: 'submitted' });
    expect((await notices(id)).at(-1)).toMatchObject({ kind: 'submit', recipient_kind: 'customer', link: `/order/order-detail/${id}` });
    // Wrong step now: publishing and confirming are refused.
    expect((await op.callContract(adminPageCheckPublish, { user_order_id: id, applicant_id: first, version: submitted.result!.version })).body.ret).toBe(
      ErrorCode.ORDER_STATE_INVALID,
    );
    expect(
      (await ctx.t.callContract(pageCheckConfirm, { user_order_id: id, applicant_id: first, version: submitted.result!.version }, { token: alice.token })).body
        .ret,
    ).toBe(ErrorCode.ORDER_STATE_INVALID);
  });

  it('refuses the page check outside page_check and moves to interview when the product needs one', async () => {
    const op = await ctx.t.operator();
    // Wrong step: an order still in material review.
    const early = await ctx.paidOrder(alice);
    await ctx.t.db.updateTable('user_order').set({ assignee_operator_id: op.operatorId }).where('user_order_id', '=', early).execute();
    const [applicant] = await ctx.t.db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', early).execute();
    expect((await uploadPage(op.token, { user_order_id: early, applicant_id: applicant!.applicant_id }, fixture('pdf'))).ret).toBe(
      ErrorCode.ORDER_STATE_INVALID,
    );
    expect(
      (await op.callContract(adminPageCheckPublish, { user_order_id: early, applicant_id: applicant!.applicant_id, version: await version(early) })).body.ret,
    ).toBe(ErrorCode.ORDER_STATE_INVALID);
    expect((await op.callContract(adminOrderSubmit, { user_order_id: early, version: await version(early), submitted_date: '2026-01-01' })).body.ret).toBe(
      ErrorCode.ORDER_STATE_INVALID,
    );

    // An interview product: the last confirmation moves the order to interview.
    const { id, applicants } = await orderInPageCheck(op, { interview: true });
    expect((await op.callContract(adminPageCheckPublish, { user_order_id: id, applicant_id: applicants[0]!, version: await version(id) })).body.ret).toBe(
      ErrorCode.PAGE_CHECK_NO_PAGES,
    );
    for (const applicantId of applicants) {
      await uploadPage(op.token, { user_order_id: id, applicant_id: applicantId }, fixture('jpeg'), 'page.jpg');
      expect((await op.callContract(adminPageCheckPublish, { user_order_id: id, applicant_id: applicantId, version: await version(id) })).body.ret).toBe(0);
    }
    let last = null;
    for (const applicantId of applicants) {
      last = (await ctx.t.callContract(pageCheckConfirm, { user_order_id: id, applicant_id: applicantId, version: await version(id) }, { token: alice.token }))
        .result;
    }
    expect(last).toMatchObject({ all_confirmed: true, step: 'interview' });
    const order = await ctx.order(id);
    // The interview step's SLA: 10 working days.
    expect(order.step_due_at).not.toBeNull();
    expect(order.step_due_at!).toBeGreaterThan(ctx.t.clock.now + 10 * 86_400_000);
    // From interview the operator submits (the pages are all confirmed) — once every notice is published and no price difference is open.
    // The panel and the workbench say why 递交使馆 is not possible yet, with submit's own refusal (issue 27).
    const blockedBy = async (reason: string | null) => {
      const detail = (await op.callContract(adminPageCheckDetail, { user_order_id: id })).result!;
      expect(detail).toMatchObject({ can_edit: false, can_submit: reason === null, submit_blocked_reason: reason, step: 'interview' });
      const { order } = (await op.callContract(adminOrderWorkbench, { user_order_id: id })).result!;
      if (reason === null) {
        expect(order.allowed_events).toContain('submit');
        expect(order.blocked_events.map((b) => b.event)).not.toContain('submit');
      } else {
        expect(order.allowed_events).not.toContain('submit');
        expect(order.blocked_events).toContainEqual({ event: 'submit', reason });
      }
    };
    await blockedBy('仍有申请人未发布面试通知，不能递交');
    const submit = async () =>
      (await op.callContract(adminOrderSubmit, { user_order_id: id, version: await version(id), submitted_date: chinaDate(ctx.t.clock.now) })).body;
    // Set up through the other modules' tables (their own tests cover how notices and price differences are made).
    const publishNotice = (applicantId: number) =>
      ctx.t.db
        .insertInto('interview_notice')
        .values({
          user_order_id: id,
          applicant_id: applicantId,
          interview_date: '2026-12-30',
          start_time: '09:00',
          end_time: '10:00',
          consulate_name: '领事馆',
          consulate_address: '地址',
          process: '流程',
          attention: '注意',
          telephone: '010-1234',
          materials: toJson(['护照']),
          published_by: op.operatorId,
          published_at: ctx.t.clock.now,
          updated_at: ctx.t.clock.now,
        })
        .execute();
    expect(await submit()).toMatchObject({ ret: ErrorCode.SUBMIT_INTERVIEW_NOTICE_MISSING, msg: '仍有申请人未发布面试通知，不能递交' });
    await publishNotice(applicants[0]!);
    if (applicants.length > 1) expect((await submit()).ret).toBe(ErrorCode.SUBMIT_INTERVIEW_NOTICE_MISSING);
    for (const applicantId of applicants.slice(1)) await publishNotice(applicantId);
    const pd = await ctx.t.db
      .insertInto('price_difference')
      .values({
        user_order_id: id,
        amount: 5000,
        reason: '加急费',
        status: 'open',
        requested_by: op.operatorId,
        created_at: ctx.t.clock.now,
        updated_at: ctx.t.clock.now,
        paid_at: null,
        out_trade_no: null,
        cancelled_at: null,
        cancelled_by: null,
      })
      .returning('price_difference_id')
      .executeTakeFirstOrThrow();
    expect(await submit()).toMatchObject({ ret: ErrorCode.SUBMIT_PRICE_DIFFERENCE_OPEN, msg: '该订单有未支付的补差价，客户支付后才能递交' });
    await blockedBy('该订单有未支付的补差价，客户支付后才能递交');
    await ctx.t.db
      .updateTable('price_difference')
      .set({ status: 'paid', paid_at: ctx.t.clock.now })
      .where('price_difference_id', '=', pd.price_difference_id)
      .execute();
    await blockedBy(null);
    expect((await submit()).body).toMatchObject({ step: 'submitted' });
  });
});
