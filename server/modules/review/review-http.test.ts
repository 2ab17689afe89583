// The back office's review calls through the real app (/admin-api, signed,
// operator sessions) on SQLite or PostgreSQL: a customer token is refused,
// take → workbench → review per file until the round ends, files opened at
// /admin-files are logged and the log is for supervisors only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminFileAccessLog, adminFileReview, adminOrderQueue, adminOrderTake, adminOrderWorkbench } from '../../../common/contracts/admin-order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { type Customer, upload } from '../../test-support/fixtures/material.ts';
import { reviewTestContext, type ReviewTestContext } from '../../test-support/fixtures/review.ts';

let ctx: ReviewTestContext;
let alice: Customer;

beforeAll(async () => {
  ctx = await reviewTestContext();
  alice = await ctx.customer();
});
afterAll(async () => {
  await ctx?.close();
});

describe(`review calls (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('refuses a customer token on the back office’s calls and an operator token on the customer’s', async () => {
    const op = await ctx.t.operator();
    const asCustomer = await ctx.t.call(adminOrderQueue.path, {}, { token: alice.token });
    expect(asCustomer.body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
    const asOperator = await ctx.t.call('/www/order/reupload_submit', { user_order_id: 1 }, { token: op.token });
    expect(asOperator.body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
  });

  it('take → workbench → review every file through /admin-api; the round ends by itself; opened files are logged', async () => {
    const id = await ctx.paidOrder(alice);
    const op = await ctx.t.operator();
    const boss = await ctx.t.operator({ role: 'supervisor' });
    const queue = await op.callContract(adminOrderQueue, { q: String(id) });
    expect(queue.result!.list).toMatchObject([{ user_order_id: id, step: 'material_review', assignee: null, overdue: false }]);
    expect((await op.callContract(adminOrderTake, { user_order_id: id })).result).toMatchObject({ assignee_operator_id: op.operatorId });
    const mine = await op.callContract(adminOrderQueue, { assignee: 'me' });
    expect(mine.result!.list[0]).toMatchObject({ user_order_id: id, assignee: { operator_id: op.operatorId, name: op.name } });

    // A real file to open: the customer's first file replaced by a JPEG (straight in the database, as if uploaded in the draft).
    await ctx.t.db.updateTable('user_order').set({ step: 'reupload_needed' }).where('user_order_id', '=', id).execute();
    const [first] = await ctx.files(id);
    await ctx.t.db.updateTable('order_material_file').set({ review_status: 'no_pass' }).where('file_id', '=', first!.file_id).execute();
    const target = first!.kind === 'photo' ? { kind: 'photo' } : { material_id: first!.material_id! };
    expect(
      (
        await upload(
          ctx.t,
          alice.token,
          { user_order_id: id, applicant_id: first!.applicant_id, ...target, replace_file_id: first!.file_id },
          { content: fixture('photo') },
        )
      ).body.ret,
    ).toBe(0);
    await ctx.t.db.updateTable('user_order').set({ step: 'material_review' }).where('user_order_id', '=', id).execute();

    const bench = (await op.callContract(adminOrderWorkbench, { user_order_id: id })).result!;
    expect(bench).toMatchObject({ can_review: true, order: { user_order_id: id, assignee: { operator_id: op.operatorId } } });
    const files = bench.applicants.flatMap((a) => a.items.flatMap((item) => item.files));
    expect(files.length).toBe(bench.pending_count);
    const url = files.find((f) => f.file_id === first!.file_id)!.url;
    expect(url).toMatch(new RegExp(`^/admin-files/material/${first!.file_id}\\?v=`));
    const opened = await ctx.t.app.inject({ method: 'GET', url, headers: { 'x-token': op.token } });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('image/jpeg');
    expect(opened.headers['cache-control']).toBe('private, no-store');
    // No operator session, or a customer's: a plain 404, nothing logged.
    expect((await ctx.t.app.inject({ method: 'GET', url, headers: { 'x-token': alice.token } })).statusCode).toBe(404);
    expect((await ctx.t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const log = await boss.callContract(adminFileAccessLog, { user_order_id: id });
    expect(log.result).toMatchObject({ total: 1, list: [{ operator_id: op.operatorId, operator_name: op.name, file_id: first!.file_id, user_order_id: id }] });
    expect((await op.callContract(adminFileAccessLog, {})).body.ret).toBe(ErrorCode.OPERATOR_FORBIDDEN);

    let version = bench.order.version;
    for (const [index, file] of files.entries()) {
      const answer = await op.callContract(adminFileReview, { user_order_id: id, file_id: file.file_id, version, result: 'pass' });
      expect(answer.body.ret).toBe(0);
      version = answer.result!.version;
      if (index === files.length - 1) expect(answer.result!.round_result).toBe('passed');
    }
    const after = (await op.callContract(adminOrderWorkbench, { user_order_id: id })).result!;
    expect(after.order.step).toBe(bench.product.mailed_materials ? 'awaiting_mail' : 'page_check');
    expect(after.can_review).toBe(false);
    expect(after.events.map((e) => e.event)).toEqual(expect.arrayContaining(['assign', 'material_review', 'material_review_passed']));
    // Another review now: the order is no longer in review.
    const late = await op.callContract(adminFileReview, { user_order_id: id, file_id: files[0]!.file_id, version, result: 'pass' });
    expect(late.body.ret).toBe(ErrorCode.ORDER_STATE_INVALID);
  });
});
