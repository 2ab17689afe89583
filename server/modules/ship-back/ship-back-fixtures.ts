// Test fixtures of ship back and retention: the review fixtures' app (real
// uploads in a temporary folder) with the receiving addresses seeded and the
// sandbox courier's pushes sent in-process when a test says so; orders
// brought to processing · submitted through lifecycle changes (the review,
// mail and submit steps are tested in their own modules), with a return
// address snapshot (what confirm keeps) and, unless told otherwise, a parcel
// of paper materials that came in (so the service holds the passports);
// applicant results set as the result service's changes would. Not a test file.
import { toJson } from '../../db/json.ts';
import { seedReceivingAddresses } from '../../db/seed/receiving-addresses.ts';
import { pickupWindowOptions } from '../../../common/courier.ts';
import { adminOrderTake } from '../../../common/contracts/admin-order.ts';
import { injectPushTransport } from '../courier/courier-fixtures.ts';
import type { Customer } from '../material/material-fixtures.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import { reviewTestContext, type ReviewTestContext } from '../review/review-fixtures.ts';
import { EVISA_TAG } from './ship-back.service.ts';

export type Op = Awaited<ReturnType<ReviewTestContext['t']['operator']>>;

export const RETURN_ADDRESS = {
  address_id: 1,
  kind: 'return' as const,
  company_name: null as string | null,
  name: '王五',
  mobile_phone: '13800138009',
  province_code: '440000',
  city_code: '440300',
  county_code: '440305',
  province_name: '广东省',
  city_name: '深圳市',
  county_name: '南山区',
  detail: '科技园科苑路15号',
};

export interface SubmittedOptions {
  /** A parcel of paper materials came in (default true): the passports must go back. */
  mailed?: boolean;
  /** The order's 拒签退全款 flag (default as the product: 1). */
  rejectRefund?: 0 | 1;
  /** The return address snapshot (default RETURN_ADDRESS; null: none). */
  returnAddress?: typeof RETURN_ADDRESS | (Omit<typeof RETURN_ADDRESS, 'kind'> & { kind: 'peer' }) | null;
  visaProductId?: number;
}

export async function shipBackTestContext() {
  const ctx = await reviewTestContext();
  const { t } = ctx;
  await seedReceivingAddresses(t.db, t.clock.now);
  t.app.courier.sandbox.pusher.stop();
  t.app.courier.sandbox.pusher.setTransport(injectPushTransport(t.app));
  const lifecycle = createOrderLifecycle(t.db, { now: () => t.clock.now });

  async function applicantIds(userOrderId: number): Promise<number[]> {
    const rows = await t.db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', userOrderId).orderBy('sort').execute();
    return rows.map((row) => row.applicant_id);
  }

  return {
    ...ctx,
    lifecycle,
    applicantIds,

    /** A paid order taken by `op`, brought to processing · submitted. */
    async submittedOrder(customer: Customer, op: Op, options: SubmittedOptions = {}): Promise<number> {
      const id = await ctx.paidOrder(customer, options.visaProductId ? { visaProductId: options.visaProductId } : {});
      const taken = await op.callContract(adminOrderTake, { user_order_id: id });
      if (taken.body.ret !== 0) throw new Error(`take: ${taken.body.msg}`);
      const address = options.returnAddress === undefined ? RETURN_ADDRESS : options.returnAddress;
      // Stands for confirm (the snapshot) and the product's flag.
      await t.db
        .updateTable('user_order')
        .set({
          return_address: address === null ? null : toJson(address),
          ...(options.rejectRefund !== undefined ? { reject_refund: options.rejectRefund } : {}),
        })
        .where('user_order_id', '=', id)
        .execute();
      await lifecycle.change(op.principal, id, () => ({ event: 'material_review_passed', to: 'processing:page_check', detail: { test: true } }));
      if (options.mailed !== false) {
        // Stands for the customer's mail_send: a self-arranged parcel of paper materials to the service.
        const courier = t.app.courier.service;
        const receiver = await courier.receivingAddress(null);
        const { receiving_address_id: _id, consular_district_id: _d, note: _n, ...contact } = receiver!;
        const draft = courier.selfExpress({
          user_order_id: id,
          direction: 'to_service',
          applicant_ids: await applicantIds(id),
          receiver: contact,
          courier_company: 'SF',
          waybill_no: `SF${String(1_000_000_000_000 + id).slice(-13)}`,
          by: customer,
        });
        await t.db.transaction().execute((trx) => courier.storeShipment(trx, draft));
      }
      await lifecycle.change(op.principal, id, () => ({ event: 'submit', set: { submitted_date: '2026-11-30' }, detail: { test: true } }));
      return id;
    },

    /** One applicant's result, as the result service's change writes it. */
    async result(op: Op, userOrderId: number, applicantId: number, status: 'issued' | 'rejected') {
      await lifecycle.change(op.principal, userOrderId, () => ({
        event: status === 'issued' ? 'result_issue' : 'result_reject',
        applicants: [{ applicant_id: applicantId, set: { status } }],
        detail: { applicant_id: applicantId, test: true },
      }));
    },

    /** The first pickup window the courier takes now. */
    window: () => pickupWindowOptions(t.clock.now)[0]!,

    /** Tags a product as an e-visa product (the catalogue's 电子签 tag). */
    async tagEvisa(visaProductId: number) {
      let tag = await t.db.selectFrom('visa_tag').select('tag_id').where('name', '=', EVISA_TAG).executeTakeFirst();
      if (!tag) tag = await t.db.insertInto('visa_tag').values({ name: EVISA_TAG, sort: 3 }).returning('tag_id').executeTakeFirstOrThrow();
      await t.db.insertInto('visa_product_tag').values({ visa_product_id: visaProductId, tag_id: tag.tag_id }).execute();
    },

    orderRow: (userOrderId: number) =>
      t.db.selectFrom('user_order').select(['status', 'step', 'version', 'step_entered_at']).where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow(),
  };
}

export type ShipBackTestContext = Awaited<ReturnType<typeof shipBackTestContext>>;
