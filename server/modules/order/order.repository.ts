// Order queries. Every read of an order is scoped to an enterprise; every
// state change is one conditional UPDATE … WHERE user_order_id = ? AND
// version = ? plus its audit row, in one transaction.
import type { ExpressionBuilder, Kysely, Transaction, Updateable } from 'kysely';
import { CUSTOMER_ACTION_STEPS, type OrderActor, type OrderListTab, PRE_SUBMISSION_STEPS, UNPAID_STATUSES } from '../../../common/order.ts';
import type { Database, UserOrderTable } from '../../db/schema.ts';

export interface NewOrder {
  enterprise_id: number;
  account_id: number;
  visa_product_id: number;
  consular_district_id: number | null;
  status: string;
  departure_date: string;
  order_date: string;
  product_title: string;
  country: string;
  visa_type: string;
  need_interview: number;
  reject_refund: number;
  unit_price: number;
  applicant_count: number;
  product_amount: number;
  total_amount: number;
  created_at: number;
  expires_at: number;
}

export interface NewApplicant {
  name: string;
  identity_id: number;
  mobile_phone: string;
  email: string | null;
}

export interface EventInput {
  actor: OrderActor;
  actor_id: number | null;
  event: string;
  from_status: string | null;
  to_status: string | null;
  detail?: Record<string, unknown> | null;
  created_at: number;
}

export interface TransitionInput {
  userOrderId: number;
  /** The version the decision was taken on; 0 rows updated when it moved on. */
  expectedVersion: number;
  /** Extra guards re-checked by the UPDATE itself. */
  expectedStatuses?: readonly string[];
  expiresBy?: number;
  changes: Omit<Updateable<UserOrderTable>, 'user_order_id' | 'version' | 'enterprise_id'> & { updated_at: number };
  event: EventInput;
  /** More writes that belong to the same change (applicant rows, slots…), run in its transaction once the order row is won. */
  alsoWithin?: (trx: Transaction<Database>) => Promise<void>;
}

type Db = Kysely<Database> | Transaction<Database>;

function insertEvent(db: Db, userOrderId: number, event: EventInput) {
  return db
    .insertInto('order_event')
    .values({
      user_order_id: userOrderId,
      actor: event.actor,
      actor_id: event.actor_id,
      event: event.event,
      from_status: event.from_status,
      to_status: event.to_status,
      detail: event.detail ? JSON.stringify(event.detail) : null,
      created_at: event.created_at,
    })
    .execute();
}

/** The 需要处理 predicate of common/order.ts (needsAction), as SQL. */
function needsActionWhere(eb: ExpressionBuilder<Database, 'user_order'>, today: string) {
  return eb.or([
    eb.and([eb('user_order.status', '=', 'processing'), eb('user_order.step', 'in', [...CUSTOMER_ACTION_STEPS])]),
    eb.and([
      eb('user_order.departure_date', '<', today),
      eb.or([
        eb('user_order.status', 'in', [...UNPAID_STATUSES]),
        eb.and([
          eb('user_order.status', '=', 'processing'),
          eb.or([eb('user_order.step', 'is', null), eb('user_order.step', 'in', [...PRE_SUBMISSION_STEPS])]),
        ]),
      ]),
    ]),
  ]);
}

const ORDER_COLUMNS = [
  'user_order.user_order_id',
  'user_order.enterprise_id',
  'user_order.account_id',
  'user_order.visa_product_id',
  'user_order.consular_district_id',
  'user_order.status',
  'user_order.step',
  'user_order.departure_date',
  'user_order.order_date',
  'user_order.product_title',
  'user_order.country',
  'user_order.visa_type',
  'user_order.need_interview',
  'user_order.reject_refund',
  'user_order.unit_price',
  'user_order.applicant_count',
  'user_order.total_amount',
  'user_order.created_at',
  'user_order.updated_at',
  'user_order.expires_at',
  'user_order.cancelled_at',
  'user_order.cancel_reason',
  'user_order.version',
  'user_order.effect_date',
  'user_order.product_amount',
  'user_order.insurance_amount',
  'user_order.discount_amount',
  'user_order.insurance_snapshot',
  'user_order.return_address',
  'user_order.confirmed_at',
  'user_order.paid_at',
  'consular_district.name as consular_district_name',
  'visa_product.visa_country_id',
] as const;

export function createOrderRepository(db: Kysely<Database>) {
  const orders = () =>
    db
      .selectFrom('user_order')
      .leftJoin('consular_district', 'consular_district.consular_district_id', 'user_order.consular_district_id')
      .innerJoin('visa_product', 'visa_product.visa_product_id', 'user_order.visa_product_id');

  return {
    /** What an order needs to know about the product at the time it is placed. */
    productForOrder(visaProductId: number) {
      return db
        .selectFrom('visa_product')
        .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
        .innerJoin('visa_type', 'visa_type.visa_type_id', 'visa_product.visa_type_id')
        .select([
          'visa_product.visa_product_id',
          'visa_product.visa_country_id',
          'visa_product.consular_district_id',
          'visa_product.entry_times',
          'visa_product.product_special_desc',
          'visa_product.need_days',
          'visa_product.sell_price',
          'visa_product.distributor_discount_desc',
          'visa_product.distributor_discount_price',
          'visa_product.status',
          'visa_product.channel',
          'visa_product.offline',
          'visa_product.need_interview',
          'visa_product.reject_refund',
          'visa_country.name as country',
          'visa_type.name as visa_type',
        ])
        .where('visa_product.visa_product_id', '=', visaProductId)
        .executeTakeFirst();
    },

    async productNeedDays(visaProductId: number): Promise<number> {
      const row = await db.selectFrom('visa_product').select('need_days').where('visa_product_id', '=', visaProductId).executeTakeFirst();
      return row?.need_days ?? 0;
    },

    district(consularDistrictId: number) {
      return db
        .selectFrom('consular_district')
        .select(['consular_district_id', 'visa_country_id', 'name'])
        .where('consular_district_id', '=', consularDistrictId)
        .executeTakeFirst();
    },

    /** The order, its applicants and its 'create' event, all or nothing. */
    createOrder(order: NewOrder, applicants: NewApplicant[], event: Omit<EventInput, 'created_at'>) {
      return db.transaction().execute(async (trx) => {
        const { user_order_id } = await trx
          .insertInto('user_order')
          .values({ ...order, step: null, updated_at: order.created_at, cancelled_at: null, cancel_reason: null, version: 0 })
          .returning('user_order_id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('order_applicant')
          .values(applicants.map((applicant, sort) => ({ ...applicant, user_order_id, passport_no: null, status: 'pending', sort })))
          .execute();
        await insertEvent(trx, user_order_id, { ...event, created_at: order.created_at });
        return user_order_id;
      });
    },

    /** One order of one enterprise; another enterprise's order is simply not found. */
    findOrder(enterpriseId: number, userOrderId: number) {
      return orders()
        .select(ORDER_COLUMNS)
        .where('user_order.user_order_id', '=', userOrderId)
        .where('user_order.enterprise_id', '=', enterpriseId)
        .executeTakeFirst();
    },

    async listOrders(enterpriseId: number, tab: OrderListTab, today: string, offset: number, limit: number) {
      const filtered = <Q extends { where: any }>(query: Q): Q => {
        let q = query.where('user_order.enterprise_id', '=', enterpriseId);
        if (tab.key === 'action') q = q.where((eb: ExpressionBuilder<Database, 'user_order'>) => needsActionWhere(eb, today));
        else if (tab.key !== 'all') q = q.where('user_order.status', 'in', [...tab.statuses]);
        return q;
      };
      const [rows, count] = await Promise.all([
        filtered(orders())
          .select(ORDER_COLUMNS)
          .orderBy('user_order.created_at', 'desc')
          .orderBy('user_order.user_order_id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        filtered(db.selectFrom('user_order'))
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.count) };
    },

    applicants(userOrderIds: number[]) {
      if (userOrderIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('order_applicant')
        .selectAll()
        .where('user_order_id', 'in', userOrderIds)
        .orderBy('user_order_id')
        .orderBy('sort')
        .orderBy('applicant_id')
        .execute();
    },

    /** Uploaded files per applicant. */
    fileCounts(userOrderId: number) {
      return db
        .selectFrom('order_material_file')
        .select(['applicant_id', (eb) => eb.fn.countAll<number>().as('count')])
        .where('user_order_id', '=', userOrderId)
        .groupBy('applicant_id')
        .execute();
    },

    payments(userOrderId: number) {
      return db
        .selectFrom('payment')
        .select(['out_trade_no', 'channel', 'amount', 'status', 'created_at', 'paid_at'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('payment_id')
        .execute();
    },

    events(userOrderId: number) {
      return db.selectFrom('order_event').selectAll().where('user_order_id', '=', userOrderId).orderBy('event_id').execute();
    },

    /**
     * Applies a state change decided on `expectedVersion`, with its audit row.
     * False when the order moved on meanwhile (nothing is written): reload
     * and decide again. Of two concurrent changes on one version exactly one
     * updates the row.
     */
    transition(input: TransitionInput): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        let update = trx
          .updateTable('user_order')
          .set((eb) => ({ ...input.changes, version: eb('version', '+', 1) }))
          .where('user_order_id', '=', input.userOrderId)
          .where('version', '=', input.expectedVersion);
        if (input.expectedStatuses) update = update.where('status', 'in', [...input.expectedStatuses]);
        if (input.expiresBy !== undefined) update = update.where('expires_at', '<=', input.expiresBy);
        const result = await update.executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        if (input.alsoWithin) await input.alsoWithin(trx);
        await insertEvent(trx, input.userOrderId, input.event);
        return true;
      });
    },

    /** Unpaid orders whose expiry time has come, oldest first. */
    dueUnpaidOrders(at: number, limit: number, scope: { enterpriseId?: number; userOrderId?: number } = {}) {
      let query = db
        .selectFrom('user_order')
        .select(['user_order_id', 'status', 'version', 'expires_at'])
        .where('status', 'in', [...UNPAID_STATUSES])
        .where('expires_at', '<=', at)
        // A payment still pending may have been paid in time: the payment
        // module settles it with the provider first (every minute, and on
        // every payment read), then the order is paid or free to expire.
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('payment')
                .select('payment.payment_id')
                .whereRef('payment.user_order_id', '=', 'user_order.user_order_id')
                .where('payment.status', '=', 'pending'),
            ),
          ),
        );
      if (scope.enterpriseId !== undefined) query = query.where('enterprise_id', '=', scope.enterpriseId);
      if (scope.userOrderId !== undefined) query = query.where('user_order_id', '=', scope.userOrderId);
      return query.orderBy('expires_at').orderBy('user_order_id').limit(limit).execute();
    },
  };
}

export type OrderRepository = ReturnType<typeof createOrderRepository>;
export type OrderRow = NonNullable<Awaited<ReturnType<OrderRepository['findOrder']>>>;
