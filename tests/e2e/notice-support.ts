// What the notices' specs set up in process on the e2e database: an order
// brought to 资料审核中 (the payment itself is the payment spec's), and
// lifecycle events fired through the order lifecycle as the test's own
// operator (or the customer, or the system) would —
// so the notice and its outbox e-mail are written exactly as in production;
// the running server's outbox sweep (NOTICE_OUTBOX_SWEEP_SECONDS) sends it.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../common/signing';
import type { OrderEventName } from '../../common/order';
import { openDatabase } from '../../server/db/database';
import { createAccountService } from '../../server/modules/account/account.service';
import { testPasswordHash } from '../../server/test-support/password';
import { type Change, createOrderLifecycle } from '../../server/modules/order/lifecycle';
import type { Customer, Principal } from '../../server/platform/principal';
import { signedApiHeaders } from './support';

function database() {
  const file = process.env.E2E_DB_FILE;
  if (!file) throw new Error('E2E_DB_FILE is not set (playwright.config.ts sets it)');
  return openDatabase({ kind: 'sqlite', file });
}

async function api<T>(baseURL: string, path: string, payload: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { ...signedApiHeaders(token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

/** A new enterprise administrator with an e-mail address (notices are e-mailed to it). */
export async function newCustomer(email: string | null): Promise<{ account: string; password: string; accountId: number; enterpriseId: number }> {
  const handle = database();
  try {
    const account = `notice_${randomBytes(4).toString('hex')}`;
    const password = 'Notice@123456';
    const ids = await createAccountService(handle.db, { idleMs: 3_600_000, absoluteMs: 86_400_000 }, Date.now, testPasswordHash).createEnterpriseWithAdmin({
      enterpriseName: `通知测试企业${account.slice(-4)}`,
      enterpriseKind: 'company',
      adminAccount: account,
      adminPasswordDigest: sha256Hex(password),
      adminName: '赵通知',
      adminMobilePhone: '13900139021',
      adminEmail: email ?? undefined,
    });
    return { account, password, ...ids };
  } finally {
    await handle.destroy();
  }
}

/** An order of the account in processing · 资料审核中 (created through the API, then marked paid: payments are tested elsewhere). */
export async function orderInReview(baseURL: string, account: string, password: string): Promise<number> {
  const { token } = await api<{ token: string }>(baseURL, '/www/account_login', { account, password: sha256Hex(password) });
  const handle = database();
  try {
    const product = await handle.db
      .selectFrom('visa_product')
      .select('visa_product_id')
      .where('status', '=', 0)
      .where('channel', '=', 0)
      .where('offline', '=', 1)
      .where('need_interview', '=', 0)
      .where('consular_district_id', 'is not', null)
      .orderBy('visa_product_id')
      .executeTakeFirstOrThrow();
    const departure = new Date(Date.now() + 40 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
    const { user_order_id } = await api<{ user_order_id: number }>(
      baseURL,
      '/www/order/order_create',
      { visa_product_id: product.visa_product_id, departure_date: departure, applicants: [{ name: '赵通知', identity_id: 0, mobile_phone: '13900139021' }] },
      token,
    );
    // Confirm and pay have their own specs: here the lifecycle's confirm and pay events move it to material_review.
    await confirmAsCustomer(user_order_id);
    // The pay event writes the payment's receipt (decision 0047; server/modules/reminder/reminder.test.ts tests it). This
    // helper stands in for a payment, so its receipt goes in the same transaction (the server's outbox sweep never sees
    // it): the specs count the notices and e-mails of the events they fire.
    await createOrderLifecycle(handle.db, { now: Date.now }).transaction(async (tx) => {
      const row = await tx.trx
        .selectFrom('user_order')
        .select(['user_order_id', 'status', 'step', 'version', 'expires_at', 'departure_date', 'need_interview'])
        .where('user_order_id', '=', user_order_id)
        .executeTakeFirstOrThrow();
      await tx.change(
        { ...row, need_interview: row.need_interview === 1 },
        { event: 'pay', set: { paid_at: Date.now(), expires_at: null } },
        { kind: 'system' },
      );
      const receipts = tx.trx.selectFrom('notice').select('notice_id').where('user_order_id', '=', user_order_id).where('kind', '=', 'payment_receipt');
      await tx.trx.deleteFrom('notice_email').where('notice_id', 'in', receipts).execute();
      await tx.trx.deleteFrom('notice').where('notice_id', 'in', receipts).execute();
    });
    return user_order_id;
  } finally {
    await handle.destroy();
  }
}

/** The order's own customer (its account and enterprise), as a lifecycle caller. */
export async function customerOf(userOrderId: number): Promise<Customer> {
  const handle = database();
  try {
    const order = await handle.db
      .selectFrom('user_order')
      .select(['account_id', 'enterprise_id'])
      .where('user_order_id', '=', userOrderId)
      .executeTakeFirstOrThrow();
    return { kind: 'customer', accountId: order.account_id, enterpriseId: order.enterprise_id };
  } finally {
    await handle.destroy();
  }
}

/**
 * The customer's confirm, fired through the lifecycle as the order's own customer: the order is
 * pending_payment with the confirm's audit row, as the confirm step leaves it. The confirm step's
 * own checks (materials, interview times, return address) are ordering-confirm.spec.ts's.
 */
export async function confirmAsCustomer(userOrderId: number): Promise<void> {
  await fire(userOrderId, { event: 'confirm', set: { confirmed_at: Date.now() } }, await customerOf(userOrderId));
}

/** Fires a lifecycle event on the order as `caller` (a StaffMember's principal, the customer, the system), in one transaction with its notices. */
export async function fire(userOrderId: number, change: Change | OrderEventName, caller: Principal): Promise<void> {
  const handle = database();
  try {
    const lifecycle = createOrderLifecycle(handle.db, { now: Date.now });
    await lifecycle.change(caller, userOrderId, () => (typeof change === 'string' ? { event: change } : change));
  } finally {
    await handle.destroy();
  }
}
