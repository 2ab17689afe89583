// Notices end to end on SQLite or PostgreSQL (TEST_DATABASE_URL): an order
// paid through the payment sandbox, lifecycle events fired as an operator;
// the notice stored in the event's transaction and e-mailed once through a
// real SMTP server on 127.0.0.1; the customer's calls see only their own.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/error-codes.ts';
import { ORDER_EVENTS } from '../../../common/order.ts';
import type { Operator } from '../../platform/principal.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import { type Customer, eventually, type PaymentTestContext, paymentTestContext } from '../../test-support/fixtures/payment.ts';
import { NOTICE_MAP, noticesOf } from '../order-notices/notice-kinds.ts';

const operator: Operator = { kind: 'operator', operatorId: 41, role: 'operator' };

interface Received {
  to: string[];
  raw: string;
}

let ctx: PaymentTestContext;
let smtp: SMTPServer;
const received: Received[] = [];
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  ctx = await paymentTestContext({
    configure: (config) => {
      config.SMTP_URL = `smtp://127.0.0.1:${port}`;
      config.PUBLIC_SITE_URL = 'https://www.yiqiantong.example';
      // Only the pokes and the tests' own drains: nothing sends behind a test's back.
      config.NOTICE_OUTBOX_SWEEP_SECONDS = 0;
    },
  });
  alice = await ctx.customer();
  bob = await ctx.customer();
  await ctx.t.db.updateTable('account').set({ email: 'alice@example.com' }).where('id', '=', alice.accountId).execute();
});

afterAll(async () => {
  await ctx?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** An order of the customer paid through the sandbox's pay page: processing, material_review. */
async function paidOrder(customer: Customer): Promise<number> {
  const { userOrderId } = await ctx.pendingOrder(customer);
  const payment = await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' }, customer);
  expect(payment.ret).toBe(0);
  const confirmed = await ctx.t.app.inject({
    method: 'POST',
    url: `/sandbox/pay/${payment.body.out_trade_no}/confirm`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(confirmed.statusCode).toBe(303);
  await eventually(async () => expect(await ctx.order(userOrderId)).toMatchObject({ status: 'processing', step: 'material_review' }));
  // The payment's receipt (decision 0047) is e-mailed after its commit: sent before a test counts the messages it causes.
  await eventually(async () =>
    expect(
      await ctx.t.db
        .selectFrom('notice_email')
        .innerJoin('notice', 'notice.notice_id', 'notice_email.notice_id')
        .select('notice_email.status')
        .where('notice.user_order_id', '=', userOrderId)
        .where('notice_email.status', '!=', 'sent')
        .execute(),
    ).toEqual([]),
  );
  return userOrderId;
}

/** Every order here was paid first: its receipt (reminder.test.ts tests it) is left out of what these tests count. */
const RECEIPT = 'payment_receipt';

const lifecycle = () => createOrderLifecycle(ctx.t.db, { now: () => ctx.t.clock.now });

function noticesOfOrder(userOrderId: number) {
  return ctx.t.db.selectFrom('notice').selectAll().where('user_order_id', '=', userOrderId).where('kind', '!=', RECEIPT).orderBy('notice_id').execute();
}

function emailsOfOrder(userOrderId: number) {
  return ctx.t.db
    .selectFrom('notice_email')
    .innerJoin('notice', 'notice.notice_id', 'notice_email.notice_id')
    .select(['notice_email.status', 'notice_email.to_address', 'notice_email.attempts', 'notice_email.sent_at', 'notice.kind'])
    .where('notice.user_order_id', '=', userOrderId)
    .where('notice.kind', '!=', RECEIPT)
    .orderBy('notice_email.notice_email_id')
    .execute();
}

/** The decoded plain-text part (quoted-printable or base64) of a message. */
function plainText(raw: string): string {
  const normalized = raw.replace(/\r\n/g, '\n');
  const part = /Content-Type: text\/plain[^\n]*\n(?:[^\n]+\n)*?Content-Transfer-Encoding: (\S+)\n\n([\s\S]*?)\n--/i.exec(normalized);
  if (!part) return '';
  const [, encoding, body] = part as unknown as [string, string, string];
  if (encoding.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function subjectOf(raw: string): string {
  const line = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)![1]!.replace(/\r?\n[ \t]/g, ' ');
  return line.replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1').replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

describe('the map (pure)', () => {
  const event = { event_id: 9, event: 'material_review_failed' as const, to_step: 'reupload_needed' as const, created_at: 1 };
  const order = { user_order_id: 12, order_no: 'YD20261128000012', account_id: 3, product_title: '日本 <单次> 旅游签证' };

  it('tells the customer to re-upload, with the re-upload page and an e-mail whose HTML is escaped', () => {
    const [notice, ...rest] = noticesOf(event, order);
    expect(rest).toEqual([]);
    expect(notice).toMatchObject({
      recipient_kind: 'customer',
      recipient_id: 3,
      kind: 'material_review_failed',
      title: '需要重新上传资料',
      link: '/order/order-reupload/12',
      order_event_id: 9,
    });
    expect(notice!.email!.subject).toBe('【易签通】需要重新上传资料');
    expect(notice!.email!.text).toContain('{{site}}/order/order-reupload/12');
    expect(notice!.email!.html).toContain('日本 &lt;单次&gt; 旅游签证');
    expect(notice!.email!.html).not.toContain('<单次>');
    // People read the order number; the link keeps the id the calls take.
    expect(notice!.body).toContain('订单 YD20261128000012（');
    expect(notice!.email!.text).toContain('订单 YD20261128000012（');
  });

  it('sends a passed review to the next step: the mail list when paper materials are due, else the detail page', () => {
    const passed = { ...event, event: 'material_review_passed' as const };
    expect(noticesOf({ ...passed, to_step: 'awaiting_mail' }, order)[0]).toMatchObject({
      title: '资料审核通过，请邮寄纸质资料',
      link: '/order/order-mail-list/12',
    });
    expect(noticesOf({ ...passed, to_step: 'page_check' }, order)[0]).toMatchObject({ title: '资料审核通过', link: '/order/order-detail/12' });
  });

  it("tells the order's assignee of a re-upload (in-app only), and nobody when no one took the order", () => {
    const submitted = { ...event, event: 'reupload_submit' as const, to_step: 'material_review' as const };
    expect(noticesOf(submitted, { ...order, assignee_operator_id: 41 })).toEqual([
      expect.objectContaining({ recipient_kind: 'operator', recipient_id: 41, kind: 'reupload_submit', link: '/admin/orders/12', email: null }),
    ]);
    expect(noticesOf(submitted, { ...order, assignee_operator_id: null })).toEqual([]);
    expect(noticesOf(submitted, order)).toEqual([]);
  });

  it('tells nobody of an event whose kinds are none', () => {
    expect(noticesOf({ ...event, event: 'material_upload' }, order)).toEqual([]);
  });

  it('tells the customer that a price difference they were asked to pay is cancelled, with its amount', () => {
    const cancelled = {
      ...event,
      event: 'price_difference_cancel' as const,
      to_step: 'interview' as const,
      detail: { price_difference_id: 5, amount: 12_000 },
    };
    expect(noticesOf(cancelled, order)).toEqual([
      expect.objectContaining({
        recipient_kind: 'customer',
        recipient_id: 3,
        kind: 'price_difference_cancel',
        title: '补差价已取消',
        link: '/order/order-detail/12',
      }),
    ]);
    expect(noticesOf(cancelled, order)[0]!.body).toContain('的补差价（￥120.00）已取消，无需再支付');
    expect(noticesOf(cancelled, order)[0]!.email!.subject).toBe('【易签通】补差价已取消');
  });

  it("docs/order-rules.md's notice table names exactly the events that tell somebody", () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/order-rules.md', import.meta.url)), 'utf8');
    const table = doc.slice(doc.indexOf('| event | who | title | link |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const documented = new Set(
      rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!)).filter((name) => name in ORDER_EVENTS),
    );
    const telling = Object.entries(NOTICE_MAP).flatMap(([name, kinds]) => (kinds.length > 0 ? [name] : []));
    expect(rows.length).toBeGreaterThan(20);
    expect([...documented].sort()).toEqual(telling.sort());
  });
});

describe(`notices of lifecycle events (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('stores the failed review for the customer in the event transaction and e-mails it once, after the commit', async () => {
    const userOrderId = await paidOrder(alice);
    const before = received.length;
    await lifecycle().change(operator, userOrderId, () => ({ event: 'material_review_failed' }));

    const notices = await noticesOfOrder(userOrderId);
    expect(notices).toHaveLength(1);
    const event = await ctx.t.db
      .selectFrom('order_event')
      .select('event_id')
      .where('user_order_id', '=', userOrderId)
      .where('event', '=', 'material_review_failed')
      .executeTakeFirstOrThrow();
    expect(notices[0]).toMatchObject({
      recipient_kind: 'customer',
      recipient_id: alice.accountId,
      kind: 'material_review_failed',
      link: `/order/order-reupload/${userOrderId}`,
      order_event_id: event.event_id,
      read_at: null,
    });

    // The poke after the commit sends it; a drain afterwards finds nothing more.
    await eventually(async () => expect((await emailsOfOrder(userOrderId))[0]).toMatchObject({ status: 'sent', to_address: 'alice@example.com', attempts: 1 }));
    expect(await ctx.t.app.noticeOutbox.drain()).toEqual({ sent: 0, retried: 0, failed: 0 });
    const mine = received.slice(before);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.to).toEqual(['alice@example.com']);
    expect(subjectOf(mine[0]!.raw)).toBe('【易签通】需要重新上传资料');
    expect(plainText(mine[0]!.raw)).toContain(`https://www.yiqiantong.example/order/order-reupload/${userOrderId}`);
  });

  it('never stores a notice twice for one event, and none for an event rolled back', async () => {
    const userOrderId = await paidOrder(alice);
    // A failure after the event in the same transaction: neither the event nor its notice stays.
    const order = await lifecycle().current(operator, userOrderId);
    await expect(
      lifecycle().transaction(async (tx) => {
        await tx.change(order, { event: 'material_review_failed' }, operator);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await noticesOfOrder(userOrderId)).toEqual([]);
    expect(await emailsOfOrder(userOrderId)).toEqual([]);

    await lifecycle().change(operator, userOrderId, () => ({ event: 'material_review_failed' }));
    const [stored] = await noticesOfOrder(userOrderId);
    // The same event and recipient again (a retry): the unique index keeps one.
    const again = await ctx.t.db
      .insertInto('notice')
      .values({ ...stored!, notice_id: undefined })
      .onConflict((oc) => oc.columns(['order_event_id', 'recipient_kind', 'recipient_id']).doNothing())
      .executeTakeFirst();
    expect(Number(again.numInsertedOrUpdatedRows ?? 0)).toBe(0);
    expect(await noticesOfOrder(userOrderId)).toHaveLength(1);
  });

  it('tells a customer without an e-mail address in the app only; the passed review points to the next step', async () => {
    const userOrderId = await paidOrder(bob);
    await lifecycle().change(operator, userOrderId, () => ({ event: 'material_review_passed', to: 'processing:page_check' }));
    const [notice] = await noticesOfOrder(userOrderId);
    expect(notice).toMatchObject({
      recipient_id: bob.accountId,
      kind: 'material_review_passed',
      title: '资料审核通过',
      link: `/order/order-detail/${userOrderId}`,
    });
    expect(await emailsOfOrder(userOrderId)).toEqual([]);
  });

  it('does not tell anybody of a re-upload while no operator has taken the order', async () => {
    const userOrderId = await paidOrder(alice);
    await lifecycle().change(operator, userOrderId, () => ({ event: 'material_review_failed' }));
    await lifecycle().change(alice, userOrderId, () => ({ event: 'reupload_submit' }));
    expect((await noticesOfOrder(userOrderId)).map((n) => n.kind)).toEqual(['material_review_failed']);

    // The order detail's schedule shows each step reached, the review twice.
    const detail = await ctx.call('/www/order/order_detail_get', { user_order_id: userOrderId }, alice);
    expect(detail.body.schedule.reached.map((step: { key: string }) => step.key)).toEqual([
      'created',
      'confirmed',
      'paid',
      'material_review',
      'reupload_needed',
      'material_review',
    ]);
    expect(detail.body.schedule.reached[4]).toMatchObject({ label: '重新上传资料', reached_at: ctx.t.clock.now });
    expect(['awaiting_mail', 'page_check']).toContain(detail.body.schedule.upcoming[0].key);
  });

  it('the payment writes its receipt only (decision 0047); the events outside the map nothing', async () => {
    const userOrderId = await paidOrder(alice);
    expect(await noticesOfOrder(userOrderId)).toEqual([]);
    const all = await ctx.t.db.selectFrom('notice').select('kind').where('user_order_id', '=', userOrderId).execute();
    expect(all).toEqual([{ kind: RECEIPT }]);
  });
});

describe('the customer calls', () => {
  it('lists only the caller’s notices, newest first, counts and marks them read; another account can neither read nor mark them', async () => {
    const carol = await ctx.customer();
    const dave = await ctx.customer();
    const first = await paidOrder(carol);
    const second = await paidOrder(carol);
    await lifecycle().change(operator, first, () => ({ event: 'material_review_failed' }));
    await lifecycle().change(operator, second, () => ({ event: 'material_review_passed', to: 'processing:awaiting_mail' }));

    const list = await ctx.call('/www/notice/notice_list', { page: 1 }, carol);
    expect(list.ret).toBe(0);
    // Each payment's receipt first (decision 0047), then the two reviews.
    expect(list.body.total_count).toBe(4);
    expect(list.body.unread_count).toBe(4);
    expect(list.body.page_data.map((n: { user_order_id: number }) => n.user_order_id)).toEqual([second, first, second, first]);
    expect(list.body.page_data.map((n: { kind: string }) => n.kind).slice(2)).toEqual([RECEIPT, RECEIPT]);
    expect(list.body.page_data[0]).toMatchObject({ kind: 'material_review_passed', link: `/order/order-mail-list/${second}`, read: false, read_at: null });
    expect((await ctx.call('/www/notice/notice_unread_count', {}, carol)).body).toEqual({ unread_count: 4 });

    // Dave sees nothing of Carol's, and cannot mark it.
    const theirs = list.body.page_data[1].notice_id as number;
    expect((await ctx.call('/www/notice/notice_list', {}, dave)).body).toMatchObject({ page_data: [], total_count: 0, unread_count: 0 });
    const refused = await ctx.call('/www/notice/notice_read', { notice_id: theirs }, dave);
    expect(refused).toMatchObject({ ret: ErrorCode.NOTICE_NOT_FOUND, msg: '消息不存在' });
    expect((await ctx.call('/www/notice/notice_read_all', {}, dave)).body).toEqual({ marked: 0, unread_count: 0 });
    expect((await ctx.call('/www/notice/notice_unread_count', {}, carol)).body).toEqual({ unread_count: 4 });

    // Carol marks one read; again keeps the first time; then all.
    const read = await ctx.call('/www/notice/notice_read', { notice_id: theirs }, carol);
    expect(read.body).toMatchObject({ notice_id: theirs, unread_count: 3 });
    ctx.t.clock.now += 60_000;
    expect((await ctx.call('/www/notice/notice_read', { notice_id: theirs }, carol)).body.read_at).toBe(read.body.read_at);
    expect((await ctx.call('/www/notice/notice_read_all', {}, carol)).body).toEqual({ marked: 3, unread_count: 0 });
    expect((await ctx.call('/www/notice/notice_list', { page: 1 }, carol)).body.page_data.every((n: { read: boolean }) => n.read)).toBe(true);

    // Refusals: a missing id, a bad id, no session.
    expect((await ctx.call('/www/notice/notice_read', { notice_id: 2_000_000_000 }, carol)).ret).toBe(ErrorCode.NOTICE_NOT_FOUND);
    expect((await ctx.call('/www/notice/notice_read', { notice_id: 'x' }, carol)).ret).toBe(ErrorCode.INVALID_PARAMS);
    expect((await ctx.t.call('/www/notice/notice_list', {})).status).toBe(401);
  });

  it('pages by ten', async () => {
    const erin = await ctx.customer();
    const id = await paidOrder(erin);
    // The payment's receipt and eleven events that tell Erin: failed / resubmitted, back and forth.
    for (let round = 0; round < 11; round += 1) {
      await lifecycle().change(operator, id, () => ({ event: 'material_review_failed' }));
      await lifecycle().change(erin, id, () => ({ event: 'reupload_submit' }));
    }
    const page1 = await ctx.call('/www/notice/notice_list', { page: 1 }, erin);
    const page2 = await ctx.call('/www/notice/notice_list', { page: 2 }, erin);
    expect(page1.body.page_data).toHaveLength(10);
    expect(page2.body.page_data).toHaveLength(2);
    expect(page1.body.total_count).toBe(12);
    expect(page2.body.page_data[0].notice_id).toBeLessThan(page1.body.page_data[9].notice_id);
  });
});
