// Test fixtures of the review module: an app on a seeded, private database
// (real uploads in a temporary folder), customers with paid orders, and
// operator principals. Orders are paid through the lifecycle's 'pay' change
// (as the payment settlement applies it) so their step clock is real. Not a
// test file itself.
import { expect } from 'vitest';
import type { Operator } from '../../platform/principal.ts';
import { SYSTEM } from '../../platform/principal.ts';
import { AppError } from '../../platform/errors.ts';
import { completeMaterials } from '../order/confirm-fixtures.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import { type Customer, draftOrder, materialTestContext, type MaterialTestContext, newCustomer } from '../material/material-fixtures.ts';
import { NUMBERED_OPERATORS } from './operators.ts';
import { createReviewQueue } from './queue.ts';
import { createReviewService } from './review.service.ts';

export { T0 } from '../material/material-fixtures.ts';

export interface ReviewTestContext extends MaterialTestContext {
  review: ReturnType<typeof createReviewService>;
  queue: ReturnType<typeof createReviewQueue>;
  customer(): Promise<Customer>;
  /** A paid order (processing · material_review) with one stored file for every required item. */
  paidOrder(customer: Customer, options?: { visaProductId?: number; identities?: number[]; phones?: string[]; departure?: string }): Promise<number>;
  files(
    userOrderId: number,
  ): Promise<Array<{ file_id: number; applicant_id: number; material_id: number | null; kind: string; review_status: string; no_pass_memo: string | null }>>;
  order(userOrderId: number): Promise<{
    status: string;
    step: string | null;
    version: number;
    step_entered_at: number | null;
    step_due_at: number | null;
    assignee_operator_id: number | null;
    review_round: number;
  }>;
  events(userOrderId: number): Promise<Array<{ event: string; actor: string; actor_id: number | null; from_step: string | null; to_step: string | null }>>;
}

let operatorIds = 100;
export function operator(role: Operator['role'] = 'operator'): Operator {
  operatorIds += 1;
  return { kind: 'operator', operatorId: operatorIds, role };
}

export async function reviewTestContext(): Promise<ReviewTestContext> {
  const base = await materialTestContext();
  const { t } = base;
  const now = () => t.clock.now;
  const lifecycle = createOrderLifecycle(t.db, { now });
  return {
    ...base,
    review: createReviewService(t.db, { now, operators: NUMBERED_OPERATORS }),
    queue: createReviewQueue(t.db, { now, operators: NUMBERED_OPERATORS }),
    customer: () => newCustomer(t),
    async paidOrder(customer, options = {}) {
      const { userOrderId } = await draftOrder(t, customer, options.visaProductId ?? base.products.withPhoto.visa_product_id, options.identities ?? [0, 3]);
      if (options.phones || options.departure) {
        const applicants = await t.db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', userOrderId).orderBy('sort').execute();
        for (const [index, phone] of (options.phones ?? []).entries()) {
          await t.db.updateTable('order_applicant').set({ mobile_phone: phone }).where('applicant_id', '=', applicants[index]!.applicant_id).execute();
        }
        if (options.departure)
          await t.db.updateTable('user_order').set({ departure_date: options.departure }).where('user_order_id', '=', userOrderId).execute();
      }
      await completeMaterials(t.db, userOrderId, customer.accountId);
      // Stands for the confirm step, which is not under test here.
      await t.db
        .updateTable('user_order')
        .set((eb) => ({ status: 'pending_payment', confirmed_at: t.clock.now, version: eb('version', '+', 1) }))
        .where('user_order_id', '=', userOrderId)
        .execute();
      await lifecycle.change(SYSTEM, userOrderId, () => ({ event: 'pay', set: { paid_at: t.clock.now, expires_at: null }, detail: { test: true } }));
      return userOrderId;
    },
    files: (userOrderId) =>
      t.db
        .selectFrom('order_material_file')
        .select(['file_id', 'applicant_id', 'material_id', 'kind', 'review_status', 'no_pass_memo'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('file_id')
        .execute(),
    order: (userOrderId) =>
      t.db
        .selectFrom('user_order')
        .select(['status', 'step', 'version', 'step_entered_at', 'step_due_at', 'assignee_operator_id', 'review_round'])
        .where('user_order_id', '=', userOrderId)
        .executeTakeFirstOrThrow(),
    events: (userOrderId) =>
      t.db
        .selectFrom('order_event')
        .select(['event', 'actor', 'actor_id', 'from_step', 'to_step'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('event_id')
        .execute(),
  };
}

/** The promise fails with this AppError (ret). */
export async function expectRet(promise: Promise<unknown>, ret: number): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, `expected ret ${ret}`).toBeInstanceOf(AppError);
  expect((error as AppError).ret).toBe(ret);
  return error as AppError;
}
