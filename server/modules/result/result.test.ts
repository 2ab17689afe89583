// Visa results through the real app (signed /admin-api and /www calls, the
// multipart file upload, the file routes, a real SMTP server) on SQLite or
// PostgreSQL: results only in `submitted`; one issued and one refused
// applicant in one order (statuses, events, notices, the customer's detail and
// list card); a second result refused; two at once → exactly one; e-visa
// uploads checked by content and size; e-visa downloads for the owner only;
// the visa infos e-mail (validation, throttle, the mail with its attachment);
// bad input never a 500.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetailGet, orderList } from '../../../common/contracts/order.ts';
import { adminResultDetail, adminResultFileUpload, adminResultIssue, adminResultReject, visaInfoSend } from '../../../common/contracts/visa-result.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { EVISA_TAG } from '../../../common/visa-result.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { SYSTEM } from '../../platform/principal.ts';
import { createTestApp, createTestDatabase, signedHeaders, type TestApp, type TestDatabase } from '../../test-support/test-app.ts';
import { type Customer, draftOrder, multipart, newCustomer, T0 } from '../../test-support/fixtures/material.ts';
import { createMailer } from '../notification/mailer.ts';
import { completeMaterials } from '../../test-support/fixtures/confirm.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';

const MAX_BYTES = 300_000;
const received: Array<{ to: string[]; raw: string }> = [];
let smtp: SMTPServer;
let database: TestDatabase;
let uploadDir: string;
let t: TestApp;
let alice: Customer;
let bob: Customer;
let op: Awaited<ReturnType<TestApp['operator']>>;
let plainProductId: number;
let evisaProductId: number;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    secure: false,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  const port = (smtp.server.address() as AddressInfo).port;
  const mailer = createMailer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: '易签通 <no-reply@yiqiantong.example>', OUTBOX_DIR: '/nonexistent' });
  database = await createTestDatabase();
  uploadDir = mkdtempSync(join(tmpdir(), 'visa-uploads-'));
  database.config.UPLOAD_DIR = uploadDir;
  database.config.UPLOAD_MAX_BYTES = MAX_BYTES;
  t = await createTestApp(database, { mailer });
  t.clock.now = T0;
  plainProductId = (await t.insertProduct({ mailed: false, photo: false })).visa_product_id;
  evisaProductId = (await t.insertProduct({ mailed: false, photo: false, specialDesc: '电子签证' })).visa_product_id;
  const tag = await t.db.insertInto('visa_tag').values({ name: EVISA_TAG, sort: 99 }).returning('tag_id').executeTakeFirstOrThrow();
  await t.db.insertInto('visa_product_tag').values({ visa_product_id: evisaProductId, tag_id: tag.tag_id }).execute();
  alice = await newCustomer(t);
  // Alice's account has an address: her notices are e-mailed too.
  await t.db.updateTable('account').set({ email: 'alice@example.com' }).where('id', '=', alice.accountId).execute();
  bob = await newCustomer(t);
  op = await t.operator();
});
afterAll(async () => {
  await t?.close(true);
  rmSync(uploadDir, { recursive: true, force: true });
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** A paid two-applicant order of the product, taken by `op`, put at the embassy (or left in another step). */
async function orderAt(step: 'submitted' | 'page_check' = 'submitted', productId = plainProductId, customer = alice) {
  const { userOrderId, applicants } = await draftOrder(t, customer, productId, [0, 3]);
  await completeMaterials(t.db, userOrderId, customer.accountId);
  // Stands for confirm and pay, which are not under test here.
  await t.db
    .updateTable('user_order')
    .set((eb) => ({ status: 'pending_payment', confirmed_at: t.clock.now, version: eb('version', '+', 1) }))
    .where('user_order_id', '=', userOrderId)
    .execute();
  await createOrderLifecycle(t.db, { now: () => t.clock.now }).change(SYSTEM, userOrderId, () => ({
    event: 'pay',
    set: { paid_at: t.clock.now, expires_at: null },
    detail: { test: true },
  }));
  // The order's payment, as the settlement books it (what a rejection refund gives back).
  const { total_amount } = await t.db.selectFrom('user_order').select('total_amount').where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow();
  await t.db
    .insertInto('payment')
    .values({
      user_order_id: userOrderId,
      out_trade_no: `T${userOrderId}R${t.clock.now}`,
      provider: 'sandbox',
      channel: 'wechat',
      amount: total_amount,
      status: 'paid',
      provider_trade_no: `4200${userOrderId}`,
      code_url: 'weixin://wxpay/test',
      account_id: customer.accountId,
      created_at: t.clock.now,
      expires_at: t.clock.now + 3_600_000,
      paid_at: t.clock.now,
      price_difference_id: null,
    })
    .execute();
  // The earlier steps are other modules' tests.
  await t.db
    .updateTable('user_order')
    .set({ step, assignee_operator_id: op.operatorId, ...(step === 'submitted' ? { submitted_date: '2026-12-01' } : {}) })
    .where('user_order_id', '=', userOrderId)
    .execute();
  return { id: userOrderId, first: applicants[0]!.applicant_id, second: applicants[1]!.applicant_id };
}

async function panel(id: number) {
  return (await op.callContract(adminResultDetail, { user_order_id: id })).result!;
}

const VISA = { visa_no: 'V12345678', valid_from: '2026-12-10', valid_to: '2027-06-09', entries: '多次', stay_days: 30 };

async function issue(id: number, applicantId: number, extra: Record<string, unknown> = {}, who = op) {
  const version = (await panel(id)).version;
  return who.call(adminResultIssue.path, { user_order_id: id, applicant_id: applicantId, version, ...VISA, ...extra });
}

async function reject(id: number, applicantId: number, extra: Record<string, unknown> = {}) {
  const version = (await panel(id)).version;
  return op.call(adminResultReject.path, { user_order_id: id, applicant_id: applicantId, version, reasons: ['funds'], note: '存款时间不足三个月', ...extra });
}

async function uploadFile(fields: Record<string, string | number>, content: Buffer, name = 'evisa.pdf', token = op.token) {
  const { body, contentType } = multipart(fields, { content, name, type: 'application/pdf' });
  const response = await t.app.inject({
    method: 'POST',
    url: adminResultFileUpload.path,
    headers: signedHeaders(t.clock, { token, headers: { 'content-type': contentType } }),
    payload: body,
  });
  const answer = response.json() as { ret: number; msg: string; body: any };
  if (answer.ret === 0) adminResultFileUpload.result.parse(answer.body);
  return { status: response.statusCode, ...answer };
}

/** The notices of the results (the payment's receipt that readied the order is reminder.test.ts's). */
async function notices(id: number) {
  return t.db
    .selectFrom('notice')
    .select(['kind', 'recipient_kind', 'recipient_id', 'link'])
    .where('user_order_id', '=', id)
    .where('kind', '!=', 'payment_receipt')
    .orderBy('notice_id')
    .execute();
}

describe(`visa results (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('records results only while the order is at the embassy (2181), by its operator, for its own applicants', async () => {
    const early = await orderAt('page_check');
    expect((await issue(early.id, early.first)).body.ret).toBe(ErrorCode.RESULT_NOT_SUBMITTED);
    expect((await reject(early.id, early.first)).body.ret).toBe(ErrorCode.RESULT_NOT_SUBMITTED);
    expect((await uploadFile({ user_order_id: early.id, applicant_id: early.first, kind: 'evisa' }, fixture('pdf'))).ret).toBe(ErrorCode.RESULT_NOT_SUBMITTED);
    expect(await panel(early.id)).toMatchObject({ can_record: false, step: 'page_check' });

    const { id, first } = await orderAt();
    const other = await orderAt();
    expect((await issue(id, other.first)).body.ret).toBe(ErrorCode.RESULT_APPLICANT_NOT_FOUND);
    const stranger = await t.operator();
    expect((await issue(id, first, {}, stranger)).body.ret).toBe(ErrorCode.REVIEW_NOT_ASSIGNEE);
    // A customer cannot reach the back office's call.
    expect((await t.call(adminResultIssue.path, { user_order_id: id }, { token: alice.token })).body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
    expect((await panel(id)).applicants.every((a) => a.status === 'pending')).toBe(true);
  });

  it('one order, one issued and one refused applicant: statuses, events, notices, detail and list card', async () => {
    const { id, first, second } = await orderAt();
    const before = await panel(id);
    expect(before).toMatchObject({ can_record: true, is_evisa: false, submitted_date: '2026-12-01' });

    const issued = await issue(id, first, { visa_no: ' v1234 5678 ' });
    expect(issued.body).toMatchObject({ ret: 0, body: { applicant_id: first, status: 'issued', version: before.version + 1 } });
    const refused = await reject(id, second, { reasons: ['funds', 'ties', 'funds'], note: '  存款时间不足三个月 ' });
    expect(refused.body).toMatchObject({ ret: 0, body: { status: 'rejected', version: before.version + 2 } });

    const after = await panel(id);
    expect(after.applicants).toMatchObject([
      {
        applicant_id: first,
        status: 'issued',
        visa_no: 'V12345678',
        valid_from: '2026-12-10',
        valid_to: '2027-06-09',
        entries: '多次',
        stay_days: 30,
        recorded_by: op.name,
      },
      {
        applicant_id: second,
        status: 'rejected',
        reject_reasons: ['funds', 'ties'],
        reject_reason: '资金证明不足；国内约束力不足（工作、家庭或资产）；存款时间不足三个月',
      },
    ]);
    // The order stays at the embassy; each result is an event of its own, and the customer is told of each.
    const order = await t.db.selectFrom('user_order').select(['status', 'step']).where('user_order_id', '=', id).executeTakeFirstOrThrow();
    expect(order).toEqual({ status: 'processing', step: 'submitted' });
    const events = await t.db
      .selectFrom('order_event')
      .select(['event', 'detail'])
      .where('user_order_id', '=', id)
      .where('event', 'in', ['result_issue', 'result_reject'])
      .orderBy('event_id')
      .execute();
    expect(events.map((e) => e.event)).toEqual(['result_issue', 'result_reject']);
    expect(JSON.parse(events[1]!.detail as string)).toMatchObject({ applicant_id: second, reasons: ['funds', 'ties'], note: '存款时间不足三个月' });
    expect(await notices(id)).toEqual([
      { kind: 'result_issue', recipient_kind: 'customer', recipient_id: alice.accountId, link: `/order/order-detail/${id}#visa-infos` },
      // 拒签退全款: the refusal's refund is told too (written inside the refusal's change, so first).
      { kind: 'refund_create', recipient_kind: 'customer', recipient_id: alice.accountId, link: `/order/order-detail/${id}#refunds` },
      { kind: 'result_reject', recipient_kind: 'customer', recipient_id: alice.accountId, link: `/order/order-detail/${id}#visa-infos` },
    ]);
    const outbox = await t.db
      .selectFrom('notice_email')
      .innerJoin('notice', 'notice.notice_id', 'notice_email.notice_id')
      .select(['notice_email.subject'])
      .where('notice.user_order_id', '=', id)
      .where('notice.kind', '!=', 'payment_receipt')
      .orderBy('notice_email.notice_email_id')
      .execute();
    expect(outbox.map((m) => m.subject)).toEqual(['【易签通】已出签', '【易签通】退款已发起', '【易签通】签证结果：拒签']);

    const detail = (await t.callContract(orderDetailGet, { user_order_id: id }, { token: alice.token })).result!;
    expect(detail.visa_results).toMatchObject([
      { applicant_id: first, status: 'issued', status_label: '已出签', visa_no: 'V12345678', has_evisa: false, evisa: null, reject_reason: null },
      { applicant_id: second, status: 'rejected', status_label: '已拒签', visa_no: null, reject_reason: expect.stringContaining('存款时间不足三个月') },
    ]);
    expect(detail.applicants.map((a) => [a.status, a.visa_valid_from, a.visa_valid_to])).toEqual([
      ['issued', '2026-12-10', '2027-06-09'],
      ['rejected', null, null],
    ]);
    const list = (await t.callContract(orderList, { tab: 'all', page: 1 }, { token: alice.token })).result!;
    const card = list.page_data.find((o) => o.user_order_id === id)!;
    expect(card.applicants.map((a) => [a.status_label, a.visa_valid_from, a.visa_valid_to])).toEqual([
      ['已出签', '2026-12-10', '2027-06-09'],
      ['已拒签', null, null],
    ]);
    // Another enterprise sees nothing of it.
    expect((await t.call(orderDetailGet.path, { user_order_id: id }, { token: bob.token })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
  });

  it('refuses a second result for the same applicant (2183) and a stale version (2182), changing nothing', async () => {
    const { id, first, second } = await orderAt();
    const { version } = await panel(id);
    expect((await op.call(adminResultIssue.path, { user_order_id: id, applicant_id: first, version: version - 1, ...VISA })).body.ret).toBe(
      ErrorCode.RESULT_ORDER_STALE,
    );
    expect((await issue(id, first)).body.ret).toBe(0);
    expect((await issue(id, first, { visa_no: 'OTHER999' })).body.ret).toBe(ErrorCode.RESULT_ALREADY_RECORDED);
    expect((await reject(id, first)).body.ret).toBe(ErrorCode.RESULT_ALREADY_RECORDED);
    // A stale version after the first result: the other applicant is refused until the panel is read again.
    expect((await op.call(adminResultReject.path, { user_order_id: id, applicant_id: second, version, reasons: ['funds'] })).body.ret).toBe(
      ErrorCode.RESULT_ORDER_STALE,
    );
    const rows = await t.db.selectFrom('visa_result').select(['applicant_id', 'visa_no']).where('user_order_id', '=', id).execute();
    expect(rows).toEqual([{ applicant_id: first, visa_no: 'V12345678' }]);
    // The database keeps one result per applicant whatever the service does.
    await expect(
      t.db
        .insertInto('visa_result')
        .values({ user_order_id: id, applicant_id: first, result: 'rejected', operator_id: op.operatorId, created_at: t.clock.now })
        .execute(),
    ).rejects.toThrow();
  });

  it('two operators recording the same applicant at once: exactly one result', async () => {
    const { id, first } = await orderAt();
    const supervisor = await t.operator({ role: 'supervisor' });
    const { version } = await panel(id);
    const answers = await Promise.all([
      op.call(adminResultIssue.path, { user_order_id: id, applicant_id: first, version, ...VISA }),
      supervisor.call(adminResultReject.path, { user_order_id: id, applicant_id: first, version, reasons: ['unstated'] }),
      op.call(adminResultIssue.path, { user_order_id: id, applicant_id: first, version, ...VISA, visa_no: 'SECOND01' }),
    ]);
    const rets = answers.map((a) => a.body.ret);
    expect(rets.filter((r) => r === 0)).toHaveLength(1);
    for (const ret of rets.filter((r) => r !== 0))
      expect([ErrorCode.RESULT_ALREADY_RECORDED, ErrorCode.RESULT_ORDER_STALE, ErrorCode.ORDER_CONFLICT]).toContain(ret);
    expect(await t.db.selectFrom('visa_result').select('result_id').where('applicant_id', '=', first).execute()).toHaveLength(1);
    const events = await t.db
      .selectFrom('order_event')
      .select('event')
      .where('user_order_id', '=', id)
      .where('event', 'in', ['result_issue', 'result_reject'])
      .execute();
    expect(events).toHaveLength(1);
  });

  it("a refusal on a 拒签退全款 order creates that applicant's refund once, even when recorded twice at the same time; none without 拒签退全款", async () => {
    const { id, first, second } = await orderAt();
    const supervisor = await t.operator({ role: 'supervisor' });
    const { version } = await panel(id);
    const answers = await Promise.all([
      op.call(adminResultReject.path, { user_order_id: id, applicant_id: first, version, reasons: ['funds'] }),
      supervisor.call(adminResultReject.path, { user_order_id: id, applicant_id: first, version, reasons: ['unstated'] }),
    ]);
    expect(answers.map((a) => a.body.ret).filter((r) => r === 0)).toHaveLength(1);
    const refunds = await t.db.selectFrom('refund').select(['applicant_id', 'kind', 'amount']).where('user_order_id', '=', id).execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ applicant_id: first, kind: 'rejection' });
    expect(refunds[0]!.amount).toBeGreaterThan(0);
    // The event names the refund it created.
    const rejection = await t.db
      .selectFrom('order_event')
      .select('detail')
      .where('user_order_id', '=', id)
      .where('event', '=', 'result_reject')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(rejection.detail!)).toMatchObject({ applicant_id: first });
    // The other applicant issued: no refund for them.
    expect((await issue(id, second)).body.ret).toBe(0);
    expect(await t.db.selectFrom('refund').select('refund_id').where('user_order_id', '=', id).execute()).toHaveLength(1);

    const noRefundProduct = (await t.insertProduct({ mailed: false, photo: false, refundOnReject: false })).visa_product_id;
    const other = await orderAt('submitted', noRefundProduct);
    expect((await reject(other.id, other.first)).body.ret).toBe(0);
    expect(await t.db.selectFrom('refund').select('refund_id').where('user_order_id', '=', other.id).execute()).toHaveLength(0);
  });

  it('checks the visa fields and the refusal reasons; bad input is never a 500', async () => {
    const { id, first, second } = await orderAt();
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ visa_no: 'ab' }, ErrorCode.RESULT_VISA_NO_INVALID],
      [{ visa_no: '签证号码1234' }, ErrorCode.RESULT_VISA_NO_INVALID],
      [{ valid_from: '2027-02-30' }, ErrorCode.RESULT_VALIDITY_INVALID],
      [{ valid_from: '2027-06-10' }, ErrorCode.RESULT_VALIDITY_INVALID],
      [{ valid_to: 'tomorrow' }, ErrorCode.RESULT_VALIDITY_INVALID],
      [{ entries: '三次' }, ErrorCode.RESULT_ENTRIES_INVALID],
      [{ stay_days: 0 }, ErrorCode.RESULT_STAY_INVALID],
      [{ stay_days: 12.5 }, ErrorCode.RESULT_STAY_INVALID],
      [{ stay_days: 99_999 }, ErrorCode.RESULT_STAY_INVALID],
      [{ evisa_file_id: 987_654 }, ErrorCode.RESULT_FILE_NOT_FOUND],
      [{ stay_days: '30' }, ErrorCode.INVALID_PARAMS],
      [{ visa_no: null }, ErrorCode.INVALID_PARAMS],
      [{ applicant_id: 'x' }, ErrorCode.INVALID_PARAMS],
      [{ evisa_file_id: 99_999_999_999 }, ErrorCode.INVALID_PARAMS],
    ];
    for (const [extra, ret] of cases) {
      const answer = await issue(id, first, extra);
      expect(answer.status, JSON.stringify(extra)).toBeLessThan(500);
      expect(answer.body.ret, JSON.stringify(extra)).toBe(ret);
    }
    const refusals: Array<[Record<string, unknown>, number]> = [
      [{ reasons: [], note: '  ' }, ErrorCode.RESULT_REASON_REQUIRED],
      [{ reasons: ['bribery'] }, ErrorCode.RESULT_REASON_INVALID],
      [{ reasons: [], note: '长'.repeat(501) }, ErrorCode.RESULT_REASON_INVALID],
      [{ reasons: 'funds' }, ErrorCode.INVALID_PARAMS],
      [{ letter_file_id: 123_456 }, ErrorCode.RESULT_FILE_NOT_FOUND],
    ];
    for (const [extra, ret] of refusals) {
      const answer = await reject(id, second, extra);
      expect(answer.status, JSON.stringify(extra)).toBeLessThan(500);
      expect(answer.body.ret, JSON.stringify(extra)).toBe(ret);
    }
    // Text only, exactly 500 characters: accepted.
    expect((await reject(id, second, { reasons: [], note: '长'.repeat(500) })).body.ret).toBe(0);
    expect((await panel(id)).applicants.map((a) => a.status)).toEqual(['pending', 'rejected']);
  });

  it('e-visa products need the e-visa file; uploads are checked by content and size; the file is attached once', async () => {
    const { id, first, second } = await orderAt('submitted', evisaProductId);
    expect((await panel(id)).is_evisa).toBe(true);
    expect((await issue(id, first)).body.ret).toBe(ErrorCode.RESULT_EVISA_REQUIRED);

    const fields = { user_order_id: id, applicant_id: first, kind: 'evisa' };
    // Text renamed .pdf: refused by its first bytes.
    expect((await uploadFile(fields, Buffer.from('%FAKE this is not a pdf at all'), 'evisa.pdf')).ret).toBe(ErrorCode.MATERIAL_FILE_TYPE);
    expect((await uploadFile(fields, fixture('renamedText'), 'evisa.png')).ret).toBe(ErrorCode.MATERIAL_FILE_TYPE);
    // A PNG past the size limit.
    const big = Buffer.concat([fixture('png').subarray(0, 64), Buffer.alloc(MAX_BYTES + 10)]);
    const tooBig = await uploadFile(fields, big, 'big.png');
    expect(tooBig.ret).toBe(ErrorCode.MATERIAL_FILE_TOO_LARGE);
    expect(tooBig.status).toBeLessThan(500);
    expect((await uploadFile(fields, Buffer.alloc(0), 'empty.pdf')).ret).toBe(ErrorCode.MATERIAL_FILE_EMPTY);
    expect((await uploadFile({ user_order_id: id, applicant_id: first, kind: 'passport' }, fixture('pdf'))).ret).toBe(ErrorCode.INVALID_PARAMS);
    expect(await t.db.selectFrom('visa_result_file').select('file_id').where('user_order_id', '=', id).execute()).toEqual([]);

    const uploaded = await uploadFile(fields, fixture('pdf'), '电子签证.pdf');
    expect(uploaded).toMatchObject({ ret: 0, body: { applicant_id: first, kind: 'evisa', content_type: 'application/pdf', file_name: '电子签证.pdf' } });
    const fileId = uploaded.body.file_id as number;
    // A letter is not an e-visa, and another applicant's file is not this one's.
    const letter = await uploadFile({ user_order_id: id, applicant_id: first, kind: 'letter' }, fixture('png'), 'letter.png');
    expect((await issue(id, first, { evisa_file_id: letter.body.file_id })).body.ret).toBe(ErrorCode.RESULT_FILE_NOT_FOUND);
    expect((await issue(id, second, { evisa_file_id: fileId })).body.ret).toBe(ErrorCode.RESULT_FILE_NOT_FOUND);

    expect((await issue(id, first, { evisa_file_id: fileId })).body.ret).toBe(0);
    const view = (await panel(id)).applicants[0]!;
    expect(view).toMatchObject({ status: 'issued', has_evisa: true, evisa: { file_id: fileId, kind: 'evisa' } });
    // No more uploads for an applicant with a result.
    expect((await uploadFile(fields, fixture('pdf'))).ret).toBe(ErrorCode.RESULT_ALREADY_RECORDED);

    // The refused applicant with the embassy's letter.
    const letter2 = await uploadFile({ user_order_id: id, applicant_id: second, kind: 'letter' }, fixture('jpeg'), 'letter.jpg');
    expect((await reject(id, second, { letter_file_id: letter2.body.file_id })).body.ret).toBe(0);
    expect((await panel(id)).applicants[1]).toMatchObject({ status: 'rejected', letter: { file_id: letter2.body.file_id }, evisa: null });
  });

  it('serves the e-visa to the order owner only (another customer, no session, an unattached file: 404)', async () => {
    const { id, first } = await orderAt('submitted', evisaProductId);
    const uploaded = await uploadFile({ user_order_id: id, applicant_id: first, kind: 'evisa' }, fixture('png'), 'evisa.png');
    const fileId = uploaded.body.file_id as number;
    // Not yet attached to a result: not the customer's to see; the operators' route logs and serves it.
    expect((await t.app.inject({ url: `/files/visa-result/${fileId}`, headers: { 'x-token': alice.token } })).statusCode).toBe(404);
    const adminOpen = await t.app.inject({ url: `/admin-files/visa-result/${fileId}`, headers: { 'x-token': op.token } });
    expect(adminOpen.statusCode).toBe(200);
    expect(
      await t.db.selectFrom('file_access_log').select('file_kind').where('file_id', '=', fileId).where('file_kind', '=', 'visa_result').execute(),
    ).toHaveLength(1);
    expect((await t.app.inject({ url: `/admin-files/visa-result/${fileId}`, headers: { 'x-token': alice.token } })).statusCode).toBe(404);

    expect((await issue(id, first, { evisa_file_id: fileId })).body.ret).toBe(0);
    const detail = (await t.callContract(orderDetailGet, { user_order_id: id }, { token: alice.token })).result!;
    const url = detail.visa_results[0]!.evisa!.url;
    expect(url).toMatch(new RegExp(`^/files/visa-result/${fileId}\\?v=[0-9a-f]{16}$`));
    const own = await t.app.inject({ url, headers: { 'x-token': alice.token } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.rawPayload.equals(fixture('png'))).toBe(true);
    expect((await t.app.inject({ url, headers: { 'x-token': bob.token } })).statusCode).toBe(404);
    expect((await t.app.inject({ url })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/files/visa-result/abc' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/files/visa-result/99999999999' })).statusCode).toBe(404);
  });

  it('e-mails the visa infos with the e-visa attached; validates the address; throttles like the checklist e-mail', async () => {
    const { id, first, second } = await orderAt('submitted', evisaProductId);
    const send = (email: string, customer = alice, applicantId?: number) =>
      t.call(visaInfoSend.path, { user_order_id: id, email, ...(applicantId ? { applicant_id: applicantId } : {}) }, { token: customer.token });
    // Nothing issued yet.
    expect((await send('wang@example.com')).body.ret).toBe(ErrorCode.RESULT_NOTHING_TO_SEND);

    const uploaded = await uploadFile({ user_order_id: id, applicant_id: first, kind: 'evisa' }, fixture('pdf'), 'evisa.pdf');
    expect((await issue(id, first, { evisa_file_id: uploaded.body.file_id })).body.ret).toBe(0);
    expect((await reject(id, second)).body.ret).toBe(0);

    for (const bad of ['not-an-email', 'a@b', 'a b@example.com', '王@example.com', 'x@example.toolong', '']) {
      const answer = await send(bad);
      expect(answer.body, bad).toMatchObject({ ret: ErrorCode.EMAIL_INVALID, msg: '请输入正确的邮箱' });
    }
    expect((await send('wang@example.com', bob)).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    expect((await send('wang@example.com', alice, second)).body.ret).toBe(ErrorCode.RESULT_NOTHING_TO_SEND);
    expect((await t.call(visaInfoSend.path, { user_order_id: id, email: 42 }, { token: alice.token })).body.ret).toBe(ErrorCode.INVALID_PARAMS);
    expect((await t.call(visaInfoSend.path, { user_order_id: id, email: 'wang@example.com' })).body.ret).toBe(ErrorCode.NOT_LOGGED_IN);

    // (The result notices' e-mails go to Alice's own address through the same server.)
    const to = (address: string) => received.filter((m) => m.to.includes(address));
    const sent = await t.callContract(visaInfoSend, { user_order_id: id, email: ' wang.min@example.com ' }, { token: alice.token });
    expect(sent.result).toEqual({ sent: 1 });
    expect(to('wang.min@example.com')).toHaveLength(1);
    const mail = to('wang.min@example.com')[0]!;
    expect(mail.to).toEqual(['wang.min@example.com']);
    expect(mail.raw).toMatch(/Content-Disposition: attachment/);
    expect(mail.raw).toMatch(/Content-Type: application\/pdf/);
    // The body names the visa number and the validity (quoted-printable or base64: decode both parts loosely).
    const decoded = decodeMime(mail.raw);
    expect(decoded).toContain('V12345678');
    expect(decoded).toContain('2026-12-10 至 2027-06-09');
    expect(decoded).toContain('申请人1');
    expect(decoded).not.toContain('申请人2');

    // Five an hour to one address, then 1429 (nothing more is sent).
    const answers: number[] = [];
    for (let i = 0; i < 5; i += 1) answers.push((await send('flood@example.com')).body.ret);
    expect(answers).toEqual([0, 0, 0, 0, 0]);
    expect((await send('FLOOD@example.com')).body.ret).toBe(ErrorCode.TOO_MANY_REQUESTS);
    expect(to('flood@example.com')).toHaveLength(5);
  });
});

/** The text of every quoted-printable or base64 text part of a raw message, decoded. */
function decodeMime(raw: string): string {
  const out: string[] = [];
  for (const part of raw.split(/\r?\n--/)) {
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
    if (!/Content-Type: text\//i.test(head)) continue;
    const body = rest.join('\n\n');
    if (/Content-Transfer-Encoding: base64/i.test(head)) out.push(Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8'));
    else if (/Content-Transfer-Encoding: quoted-printable/i.test(head))
      out.push(
        Buffer.from(
          body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
      );
    else out.push(body);
  }
  return out.join('\n');
}
