// Teams (issue 29) on a real database (SQLite, or PostgreSQL with
// TEST_DATABASE_URL): invitations and their links, roles refused by the
// session hook, disabling, the last administrator, and one enterprise's
// colleague never seeing another's orders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WWW_CONTRACTS } from '../../../common/contracts/index.ts';
import { sha256Hex } from '../../../common/signing.ts';
import { CUSTOMER_CALL_ACCESS } from '../../../common/team.ts';
import { applicant, HOUR, type OrderTestContext, orderTestContext } from '../../test-support/fixtures/order.ts';
import type { TestApp } from '../../test-support/test-app.ts';

let ctx: OrderTestContext;
let t: TestApp;
beforeAll(async () => {
  ctx = await orderTestContext();
  t = ctx.t;
});
afterAll(async () => {
  await ctx?.close();
});

const DEPARTURE = '2026-12-28';
let sequence = 0;

/** A fresh enterprise with its administrator, logged in. */
async function enterprise() {
  const admin = await t.loggedInCustomer();
  const call = (path: string, payload: unknown = {}) => t.call(path, payload, { token: admin.token });
  return { admin, call };
}

/** The token of the newest link e-mailed to an address (from the outbox row the transaction wrote). */
async function mailedToken(address: string): Promise<string> {
  const row = await t.db
    .selectFrom('notice_email')
    .select(['text', 'html', 'subject'])
    .where('to_address', '=', address)
    .orderBy('notice_email_id', 'desc')
    .executeTakeFirstOrThrow();
  const match = /\/team\/join#([A-Za-z0-9_-]{43})/.exec(row.text);
  if (!match) throw new Error(`no link in ${row.text}`);
  return match[1]!;
}

/** Invites a colleague by e-mail, accepts the link and logs them in. */
async function colleague(
  call: (path: string, payload?: unknown) => ReturnType<TestApp['call']>,
  role: 'admin' | 'agent' | 'finance',
  name = `同事${++sequence}`,
) {
  const email = `colleague${++sequence}.${Date.now()}@example.com`;
  const invited = await call('/www/team/member_invite', { name, contact: email, role });
  expect(invited.body.ret).toBe(0);
  expect(invited.body.body).toMatchObject({ channel: 'email', link: null });
  const token = await mailedToken(email);
  const password = `Pw-${sequence}-ok`;
  const accepted = await t.call('/www/team/invitation_accept', { token, password: sha256Hex(password) });
  expect(accepted.body).toMatchObject({ ret: 0, body: { account: email } });
  return { accountId: invited.body.body.account_id as number, account: email, password, name, token: await t.login(email, password) };
}

async function placeOrder(token: string) {
  const created = await t.call(
    '/www/order/order_create',
    { visa_product_id: ctx.products.plain.visa_product_id, departure_date: DEPARTURE, applicants: [applicant(1)] },
    { token },
  );
  expect(created.body.ret).toBe(0);
  return created.body.body.user_order_id as number;
}

describe(`teams (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('classifies every customer call: the table names exactly the /www calls that need a session', async () => {
    const paths = new Set(Object.keys(WWW_CONTRACTS));
    for (const path of Object.keys(CUSTOMER_CALL_ACCESS)) expect(paths.has(path), path).toBe(true);
    // Every /www call either needs no session (answers without X-Token) or is in the table.
    const missing: string[] = [];
    for (const path of paths) {
      if (CUSTOMER_CALL_ACCESS[path]) continue;
      const answer = await t.call(path, {});
      if (answer.status === 401) missing.push(path);
    }
    expect(missing).toEqual([]);
  });

  it('invites by e-mail through the outbox; the colleague sets a password once and logs in', async () => {
    const { admin, call } = await enterprise();
    const email = `new.${Date.now()}@example.com`;
    const invited = await call('/www/team/member_invite', { name: ' 李 四 ', contact: ` ${email.toUpperCase()} `, role: 'agent' });
    expect(invited.body.ret).toBe(0);
    const mail = await t.db.selectFrom('notice_email').selectAll().where('to_address', '=', email).executeTakeFirstOrThrow();
    expect(mail.status).toBe('pending');
    expect(mail.subject).toContain('邀请您加入易签通');
    expect(mail.text).toContain(`登录账号：${email}`);
    // The in-app notice never carries the token.
    const notice = await t.db.selectFrom('notice').selectAll().where('notice_id', '=', mail.notice_id).executeTakeFirstOrThrow();
    expect(`${notice.body}${notice.link}`).not.toContain('#');

    const listed = (await call('/www/team/member_list')).body.body.members;
    expect(listed).toHaveLength(2);
    expect(listed.find((m: { account: string }) => m.account === email)).toMatchObject({
      name: '李 四',
      role: 'agent',
      role_label: '经办人',
      status: 'invited',
    });

    // Before accepting, the invited account cannot log in.
    expect((await t.call('/www/account_login', { account: email, password: sha256Hex('anything') })).body.ret).toBe(1301);

    const token = await mailedToken(email);
    const info = await t.call('/www/team/invitation_get', { token });
    expect(info.body.body).toMatchObject({ purpose: 'invite', account: email, name: '李 四', role_label: '经办人' });
    expect(info.body.body.enterprise_name).toBeTruthy();

    expect((await t.call('/www/team/invitation_accept', { token, password: 'not-a-digest' })).body.ret).toBe(1001);
    expect((await t.call('/www/team/invitation_accept', { token: 'x'.repeat(43), password: sha256Hex('Secret-1') })).body).toEqual({
      ret: 2509,
      msg: '链接无效或已使用，请联系管理员重新发送',
      body: null,
    });
    expect((await t.call('/www/team/invitation_accept', { token, password: sha256Hex('Secret-1') })).body.ret).toBe(0);
    // Used once only.
    expect((await t.call('/www/team/invitation_accept', { token, password: sha256Hex('Other-2') })).body.ret).toBe(2509);
    expect((await t.call('/www/team/invitation_get', { token })).body.ret).toBe(2509);
    const colleagueToken = await t.login(email, 'Secret-1');
    // The invitation's notice is read once the link has been used.
    expect((await t.call('/www/notice/notice_unread_count', {}, { token: colleagueToken })).body.body.unread_count).toBe(0);
    const me = (await t.call('/www/user/user_info_query', {}, { token: colleagueToken })).body.body;
    expect(me).toMatchObject({ account: email, role: 'agent' });
    expect(me.enterprise.enterprise_id).toBe(admin.enterpriseId);
  });

  it('invites by mobile with the link shown to the administrator (no SMS), refuses bad and taken contacts and expired links', async () => {
    const { call } = await enterprise();
    const mobile = `139${String(Date.now()).slice(-8)}`;
    const invited = await call('/www/team/member_invite', { name: '王五', contact: mobile, role: 'finance' });
    expect(invited.body.body).toMatchObject({ channel: 'manual' });
    expect(invited.body.body.link).toMatch(/^https?:\/\/[^/]+\/team\/join#[A-Za-z0-9_-]{43}$/);
    expect(await t.db.selectFrom('notice').select('notice_id').where('recipient_id', '=', invited.body.body.account_id).execute()).toEqual([]);

    expect((await call('/www/team/member_invite', { name: '重复', contact: mobile, role: 'agent' })).body.ret).toBe(2506);
    for (const contact of ['12345', 'a@b', '', `${'x'.repeat(45)}@example.com`]) {
      expect((await call('/www/team/member_invite', { name: '某人', contact, role: 'agent' })).body.ret, contact).toBe(2505);
    }
    expect((await call('/www/team/member_invite', { name: '   ', contact: '13700000001', role: 'agent' })).body.ret).toBe(2507);
    expect((await call('/www/team/member_invite', { name: '某人', contact: '13700000001', role: 'boss' })).body.ret).toBe(1001);

    const token = invited.body.body.link.split('#')[1];
    // A resend replaces the link: the old one stops working.
    const resent = await call('/www/team/invitation_resend', { account_id: invited.body.body.account_id });
    expect(resent.body.ret).toBe(0);
    expect((await t.call('/www/team/invitation_get', { token })).body.ret).toBe(2509);
    const fresh = resent.body.body.link.split('#')[1];
    t.clock.now += 73 * HOUR;
    try {
      expect((await t.call('/www/team/invitation_accept', { token: fresh, password: sha256Hex('Late-1') })).body).toEqual({
        ret: 2510,
        msg: '链接已过期，请联系管理员重新发送',
        body: null,
      });
    } finally {
      t.clock.now -= 73 * HOUR;
    }
  });

  it('refuses a 财务 placing or cancelling an order (2501, in Chinese) but lets them read the enterprise orders and pay', async () => {
    const { admin } = await enterprise();
    const finance = await t.loggedInColleague(admin.enterpriseId, 'finance');
    const orderId = await placeOrder(admin.token);

    const refused = await t.call(
      '/www/order/order_create',
      { visa_product_id: ctx.products.plain.visa_product_id, departure_date: DEPARTURE, applicants: [applicant(1)] },
      { token: finance.token },
    );
    expect(refused.body).toEqual({ ret: 2501, msg: '财务角色只能查看订单、支付记录并支付订单，不能下单、取消或修改订单', body: null });
    expect((await t.call('/www/order/order_cancel', { user_order_id: orderId }, { token: finance.token })).body.ret).toBe(2501);
    expect((await t.call('/www/address/address_save', {}, { token: finance.token })).body.ret).toBe(2501);
    expect((await t.call('/www/team/member_list', {}, { token: finance.token })).body).toMatchObject({
      ret: 2501,
      msg: '只有管理员可以管理成员，您的角色是财务',
    });
    // The order is still there, untouched.
    expect((await t.call('/www/order/order_detail_get', { user_order_id: orderId }, { token: admin.token })).body.body.status).toBe('draft');

    const list = await t.call('/www/order/order_list', { tab: 'all' }, { token: finance.token });
    expect(list.body.body.page_data.map((o: { user_order_id: number }) => o.user_order_id)).toEqual([orderId]);
    expect((await t.call('/www/order/order_detail_get', { user_order_id: orderId }, { token: finance.token })).body.ret).toBe(0);
    // Paying is not refused by the role (the order is a draft: the payment's own rule answers).
    const pay = await t.call('/www/payment/payment_create', { user_order_id: orderId, channel: 'alipay' }, { token: finance.token });
    expect(pay.body.ret).not.toBe(2501);
    expect(pay.body.ret).not.toBe(0);
  });

  it("records which colleague did what: 我的订单 / 全部, and each action's name on the timeline", async () => {
    const { admin } = await enterprise();
    const agent = await t.loggedInColleague(admin.enterpriseId, 'agent', { name: '赵经办' });
    const mine = await placeOrder(admin.token);
    const theirs = await placeOrder(agent.token);
    const ids = async (token: string, scope: string) =>
      (await t.call('/www/order/order_list', { tab: 'all', scope }, { token })).body.body.page_data.map((o: { user_order_id: number }) => o.user_order_id);
    expect(await ids(admin.token, 'all')).toEqual([theirs, mine]);
    expect(await ids(admin.token, 'mine')).toEqual([mine]);
    expect(await ids(agent.token, 'mine')).toEqual([theirs]);
    expect(await ids(agent.token, 'all')).toEqual([theirs, mine]);

    // The agent cancels the administrator's order: the timeline names both.
    expect((await t.call('/www/order/order_cancel', { user_order_id: mine }, { token: agent.token })).body.ret).toBe(0);
    const events = (await t.call('/www/order/order_detail_get', { user_order_id: mine }, { token: admin.token })).body.body.events;
    expect(events.map((e: { event: string; actor_name: string | null }) => [e.event, e.actor_name])).toEqual([
      ['create', admin.name],
      ['cancel', '赵经办'],
    ]);
  });

  it("ends a disabled colleague's sessions at once; their orders stay the enterprise's; re-enabled they log in again", async () => {
    const { admin, call } = await enterprise();
    const agent = await t.loggedInColleague(admin.enterpriseId, 'agent');
    const orderId = await placeOrder(agent.token);
    expect((await call('/www/team/member_disable', { account_id: agent.accountId })).body.ret).toBe(0);
    const refused = await t.call('/www/order/order_list', {}, { token: agent.token });
    expect(refused.status).toBe(401);
    expect(refused.body.ret).toBe(1201);
    expect((await t.call('/www/account_login', { account: agent.account, password: sha256Hex(agent.password) })).body.ret).toBe(1303);
    expect((await t.call('/www/order/order_detail_get', { user_order_id: orderId }, { token: admin.token })).body.ret).toBe(0);
    expect((await call('/www/team/member_disable', { account_id: agent.accountId })).body.ret).toBe(2511);

    expect((await call('/www/team/member_enable', { account_id: agent.accountId })).body.ret).toBe(0);
    // The old token stays dead; a new login works.
    expect((await t.call('/www/order/order_list', {}, { token: agent.token })).status).toBe(401);
    await t.login(agent.account, agent.password);
  });

  it('resets a password: the old one stops working, sessions end, the link sets a new one', async () => {
    const { call } = await enterprise();
    const agent = await colleague(call, 'agent');
    expect((await call('/www/team/member_password_reset', { account_id: agent.accountId })).body).toMatchObject({ ret: 0, body: { channel: 'email' } });
    expect((await t.call('/www/order/order_list', {}, { token: agent.token })).status).toBe(401);
    expect((await t.call('/www/account_login', { account: agent.account, password: sha256Hex(agent.password) })).body.ret).toBe(1301);
    const token = await mailedToken(agent.account);
    expect((await t.call('/www/team/invitation_get', { token })).body.body.purpose).toBe('reset');
    expect((await t.call('/www/team/invitation_accept', { token, password: sha256Hex('Brand-New-1') })).body.ret).toBe(0);
    await t.login(agent.account, 'Brand-New-1');
  });

  it('keeps the last administrator: not disabled, not demoted; another admin can step down', async () => {
    const { admin, call } = await enterprise();
    expect((await call('/www/team/member_disable', { account_id: admin.accountId })).body).toEqual({
      ret: 2503,
      msg: '企业至少需要保留一位启用的管理员',
      body: null,
    });
    expect((await call('/www/team/member_role_update', { account_id: admin.accountId, role: 'agent' })).body.ret).toBe(2503);
    expect((await call('/www/team/member_password_reset', { account_id: admin.accountId })).body.ret).toBe(2504);

    const second = await colleague(call, 'admin');
    // Two administrators: the first steps down, and at once may no longer manage colleagues.
    expect((await call('/www/team/member_role_update', { account_id: admin.accountId, role: 'agent' })).body.ret).toBe(0);
    expect((await call('/www/team/member_list')).body.ret).toBe(2501);
    const asSecond = (path: string, payload: unknown = {}) => t.call(path, payload, { token: second.token });
    expect((await asSecond('/www/team/member_disable', { account_id: second.accountId })).body.ret).toBe(2503);
    expect((await asSecond('/www/team/member_role_update', { account_id: admin.accountId, role: 'admin' })).body.ret).toBe(0);

    // Two administrators disabling each other at the same moment: one of them stays.
    const first = await t.login(admin.account, admin.password);
    const answers = await Promise.all([
      t.call('/www/team/member_disable', { account_id: second.accountId }, { token: first }),
      t.call('/www/team/member_disable', { account_id: admin.accountId }, { token: second.token }),
    ]);
    expect(answers.filter((a) => a.body.ret === 0)).toHaveLength(1);
    const admins = await t.db
      .selectFrom('account')
      .select('id')
      .where('enterprise_id', '=', admin.enterpriseId)
      .where('role', '=', 'admin')
      .where('status', '=', 0)
      .execute();
    expect(admins).toHaveLength(1);
  });

  it("shows another enterprise's colleague nothing: their order is a missing order, their colleague a missing member", async () => {
    const a = await enterprise();
    const b = await enterprise();
    const agentOfB = await t.loggedInColleague(b.admin.enterpriseId, 'agent');
    const orderOfA = await placeOrder(a.admin.token);
    const foreign = await t.call('/www/order/order_detail_get', { user_order_id: orderOfA }, { token: agentOfB.token });
    const missing = await t.call('/www/order/order_detail_get', { user_order_id: 2_000_000_000 }, { token: agentOfB.token });
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body.ret).toBe(1801);
    expect((await t.call('/www/order/order_list', {}, { token: agentOfB.token })).body.body.total_count).toBe(0);

    const foreignMember = await a.call('/www/team/member_disable', { account_id: agentOfB.accountId });
    const missingMember = await a.call('/www/team/member_disable', { account_id: 2_000_000_000 });
    expect(foreignMember.body).toEqual(missingMember.body);
    expect(foreignMember.body.ret).toBe(2502);
    for (const path of ['/www/team/member_role_update', '/www/team/member_password_reset', '/www/team/invitation_resend', '/www/team/member_enable']) {
      expect((await a.call(path, { account_id: agentOfB.accountId, role: 'finance' })).body.ret, path).toBe(2502);
    }
    // Still able to work in their own enterprise.
    expect((await t.call('/www/order/order_list', {}, { token: agentOfB.token })).body.ret).toBe(0);
  });
});
