// The 产品编辑 role (catalogue_editor, issue 26) on SQLite or PostgreSQL
// (TEST_DATABASE_URL): a supervisor creates one; it logs in and opens every
// 产品管理 call and its own session's, and every other back-office call
// answers 2003 before anything is read — walked over the whole /admin-api
// registry, so a call added later is held to the same rule. The order files
// are a plain 404 to it, the in-process page reads refuse it as the calls do,
// it is given no order, and operators and supervisors keep what they had.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCatalogueCountryList } from '../../../common/contracts/catalogue-places.ts';
import { adminCatalogueProductList, adminCatalogueWorkbookExport } from '../../../common/contracts/catalogue-admin.ts';
import type { Contract } from '../../../common/contracts/define.ts';
import { adminOrderAssign, adminOrderQueue, adminOrderWorkbench, adminQueueFilters } from '../../../common/contracts/admin-order.ts';
import { ADMIN_CONTRACTS } from '../../../common/contracts/index.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { sha256Hex } from '../../../common/signing.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { type Customer, upload } from '../../test-support/fixtures/material.ts';
import { reviewTestContext, type ReviewTestContext } from '../../test-support/fixtures/review.ts';
import { operatorReads } from '../../web/operator-reads.ts';
import { totpCode } from './totp.ts';

let ctx: ReviewTestContext;
let alice: Customer;
type Staff = Awaited<ReturnType<ReviewTestContext['t']['operator']>>;
let editor: Staff;
let clerk: Staff;
let boss: Staff;

beforeAll(async () => {
  ctx = await reviewTestContext();
  alice = await ctx.customer();
  editor = await ctx.t.operator({ role: 'catalogue_editor', name: '韩编辑' });
  clerk = await ctx.t.operator({ role: 'operator', name: '张办理' });
  boss = await ctx.t.operator({ role: 'supervisor', name: '王主管' });
});
afterAll(async () => {
  await ctx?.close();
});

const REFUSED = { ret: ErrorCode.OPERATOR_FORBIDDEN, msg: '产品编辑只能使用产品管理', body: null };
const OWN_SESSION = ['/admin-api/operator_login', '/admin-api/operator_logout', '/admin-api/operator_me'];
const adminPaths = Object.values(ADMIN_CONTRACTS as Record<string, Contract>).map((contract) => contract.path);
const isCatalogue = (path: string) => path.startsWith('/admin-api/catalogue/');

describe(`the 产品编辑 role (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('is created by a supervisor and logs in as 产品编辑', async () => {
    const account = `editor_${Date.now().toString(36)}`;
    const created = await boss.call('/admin-api/operator/operator_create', {
      account,
      name: '李编辑',
      role: 'catalogue_editor',
      password: sha256Hex('Welcome@2026'),
    });
    expect(created.body.ret, created.body.msg).toBe(0);
    ctx.t.clock.now += 30_000;
    const login = await ctx.t.call('/admin-api/operator_login', {
      account,
      password: sha256Hex('Welcome@2026'),
      code: totpCode(created.body.body.secret, ctx.t.clock.now),
    });
    expect(login.body.body).toMatchObject({ next: 'done', operator: { name: '李编辑', role: 'catalogue_editor', role_label: '产品编辑' } });
    const list = await boss.call('/admin-api/operator/operator_list');
    expect(list.body.body.list.find((row: { account: string }) => row.account === account)).toMatchObject({ role: 'catalogue_editor', role_label: '产品编辑' });
    expect((await editor.call('/admin-api/operator_me')).body.body).toMatchObject({
      operator_id: editor.operatorId,
      role: 'catalogue_editor',
      role_label: '产品编辑',
    });
  });

  it('opens 产品管理’s calls, as a supervisor does', async () => {
    const product = await ctx.t.insertProduct();
    const list = await editor.callContract(adminCatalogueProductList, { keyword: String(product.visa_product_id), page: 1 });
    expect(list.body.ret, list.body.msg).toBe(0);
    expect(list.result!.list.map((row) => row.visa_product_id)).toContain(product.visa_product_id);
    expect((await editor.callContract(adminCatalogueCountryList, {})).body.ret).toBe(0);
    const exported = await editor.callContract(adminCatalogueWorkbookExport, {});
    expect(exported.body.ret).toBe(0);
    expect(exported.result!.content_base64.length).toBeGreaterThan(1000);
  });

  it('is refused every other back-office call (2003, before anything is read), and an operator still every 产品管理 call', async () => {
    const walker = await ctx.t.operator({ role: 'catalogue_editor' });
    expect(adminPaths.filter(isCatalogue).length).toBeGreaterThanOrEqual(20);
    // Its logout last: it ends the session the walk uses.
    for (const path of adminPaths.filter((path) => path !== '/admin-api/operator_logout')) {
      const mine = await walker.call(path, {});
      expect(mine.status, path).toBeLessThan(500);
      if (isCatalogue(path) || OWN_SESSION.includes(path)) {
        // Past the session hook: the payload's own check (1001) or the call's answer, never the role's refusal.
        expect(mine.body.ret, path).not.toBe(ErrorCode.OPERATOR_FORBIDDEN);
        expect(mine.body.ret, path).not.toBe(ErrorCode.NOT_LOGGED_IN);
      } else {
        expect(mine.body, path).toEqual(REFUSED);
      }
      if (isCatalogue(path)) {
        expect((await clerk.call(path, {})).body, path).toEqual({ ret: ErrorCode.OPERATOR_FORBIDDEN, msg: '仅主管可以执行此操作', body: null });
        expect((await boss.call(path, {})).body.ret, path).not.toBe(ErrorCode.OPERATOR_FORBIDDEN);
      }
    }
    expect((await walker.call('/admin-api/operator_logout', {})).body.ret).toBe(0);
    expect((await walker.call('/admin-api/operator_me', {})).body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
  });

  it('works on no order: refused its queue, workbench and files; the operator keeps them', async () => {
    const id = await ctx.paidOrder(alice);
    expect((await editor.callContract(adminOrderQueue, { q: String(id) })).body).toEqual(REFUSED);
    expect((await editor.callContract(adminOrderWorkbench, { user_order_id: id })).body).toEqual(REFUSED);
    expect((await editor.call('/admin-api/order/take', { user_order_id: id })).body).toEqual(REFUSED);
    const queue = await clerk.callContract(adminOrderQueue, { q: String(id) });
    expect(queue.result!.list.map((row) => row.user_order_id)).toEqual([id]);
    // Nor can a supervisor give it one: it is not among the assignees, and assigning to it is refused as to no one.
    const staff = (await clerk.callContract(adminQueueFilters, {})).result!.operators.map((row) => row.operator_id);
    expect(staff).toEqual(expect.arrayContaining([clerk.operatorId, boss.operatorId]));
    expect(staff).not.toContain(editor.operatorId);
    expect((await boss.callContract(adminOrderAssign, { user_order_id: id, operator_id: editor.operatorId })).body.ret).toBe(
      ErrorCode.REVIEW_OPERATOR_NOT_FOUND,
    );
    expect(
      (await ctx.t.db.selectFrom('user_order').select('assignee_operator_id').where('user_order_id', '=', id).executeTakeFirstOrThrow()).assignee_operator_id,
    ).toBeNull();

    // An order's file (a real one: the customer replaces the first, as review-http.test.ts does): a plain 404 to
    // the editor's session, as to none; nothing logged. The operator opens it.
    await ctx.t.db.updateTable('user_order').set({ step: 'reupload_needed' }).where('user_order_id', '=', id).execute();
    const [first] = await ctx.files(id);
    await ctx.t.db.updateTable('order_material_file').set({ review_status: 'no_pass' }).where('file_id', '=', first!.file_id).execute();
    const target = first!.kind === 'photo' ? { kind: 'photo' } : { material_id: first!.material_id! };
    const fields = { user_order_id: id, applicant_id: first!.applicant_id, ...target, replace_file_id: first!.file_id };
    const uploaded = await upload(ctx.t, alice.token, fields, { content: fixture('photo') });
    expect(uploaded.body.ret, uploaded.body.msg).toBe(0);
    const url = `/admin-files/material/${first!.file_id}`;
    expect((await ctx.t.app.inject({ method: 'GET', url, headers: { 'x-token': editor.token } })).statusCode).toBe(404);
    expect(await ctx.t.db.selectFrom('file_access_log').select('operator_id').where('operator_id', '=', editor.operatorId).execute()).toEqual([]);
    expect((await ctx.t.app.inject({ method: 'GET', url, headers: { 'x-token': clerk.token } })).statusCode).toBe(200);
  });

  it('gets the same answers from the pages’ in-process reads', async () => {
    const reads = operatorReads(ctx.t.services, editor.principal, await ctx.t.services.operator.me(editor.principal));
    expect(reads.me).toMatchObject({ role: 'catalogue_editor', role_label: '产品编辑' });
    expect((await reads.catalogueProducts({ page: 1 })).ok).toBe(true);
    expect((await reads.catalogueCountries()).ok).toBe(true);
    const refused = { ok: false, ret: ErrorCode.OPERATOR_FORBIDDEN, msg: '产品编辑只能使用产品管理' };
    expect(await reads.orderQueue({})).toEqual(refused);
    expect(await reads.queueView()).toEqual(refused);
    expect(await reads.refundFailedCount()).toEqual(refused);
    expect(await reads.reconciliation({})).toEqual(refused);
    expect(await reads.invoices({})).toEqual(refused);
    expect(await reads.operatorList()).toEqual(refused);
    expect(await reads.fileAccessLog({})).toEqual(refused);

    const asClerk = operatorReads(ctx.t.services, clerk.principal, await ctx.t.services.operator.me(clerk.principal));
    expect((await asClerk.orderQueue({})).ok).toBe(true);
    expect(await asClerk.catalogueProducts({ page: 1 })).toEqual({ ok: false, ret: ErrorCode.OPERATOR_FORBIDDEN, msg: '仅主管可以执行此操作' });
  });
});
