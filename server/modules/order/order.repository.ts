// Order queries. A customer's reads are scoped to their enterprise (another
// enterprise's order is simply not found); operators and the system read any.
// Rows leave here typed: flags as booleans, JSON snapshots parsed. Writes of
// the order's state are the lifecycle's (lifecycle.ts), in its transactions.
import { type ExpressionBuilder, type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import { CUSTOMER_ACTION_STEPS, type OrderListTab, type OrderStatus, type OrderStep, PRE_SUBMISSION_STEPS, UNPAID_STATUSES } from '../../../common/order.ts';
import { type Flag, fromJson, type Json } from '../../db/json.ts';
import { orderNumber, orderNumberPrefix } from '../../../common/order-number.ts';
import { withAbandonedClosed } from '../../../common/payment.ts';
import { prepared } from '../../db/database.ts';
import { groupCommit } from '../../db/group-commit.ts';
import type { Database } from '../../db/schema.ts';
import { type ChecklistCache, type ChecklistItem, type ChecklistVersion, checklistVersions, createChecklistCache } from './checklist-version.ts';

/** Whose orders a read may see: one enterprise's, or (operators, the system) every one. */
export interface OrderScope {
  enterpriseId?: number;
}

/** The 'create' event's row (the lifecycle writes it with the order). */
export interface NewCreateEvent {
  actor: 'customer' | 'operator' | 'system';
  actor_id: number | null;
  to_status: OrderStatus;
  to_step: OrderStep | null;
  detail: Json<Record<string, unknown>>;
  created_at: number;
}

export interface NewOrder {
  enterprise_id: number;
  account_id: number;
  visa_product_id: number;
  consular_district_id: number | null;
  status: OrderStatus;
  step?: OrderStep | null;
  step_entered_at?: number;
  departure_date: string;
  order_date: string;
  product_title: string;
  country: string;
  visa_type: string;
  need_interview: Flag;
  reject_refund: Flag;
  unit_price: number;
  applicant_count: number;
  product_amount: number;
  total_amount: number;
  created_at: number;
  expires_at: number;
  /** The photo rule the order is placed with (0 and nulls: no photo item). */
  visa_photo_id: number;
  photo_color: number | null;
  photo_width: number | null;
  photo_height: number | null;
  photo_name: string | null;
  /** The product's stay in days (0 = open-ended), for the passport validity check (migration 057). */
  stay_days: number;
}

export interface NewApplicant {
  name: string;
  identity_id: number;
  mobile_phone: string;
  email: string | null;
  /** From a passport read the customer confirmed, or typed (issue 28). */
  passport_no: string | null;
  /** 'YYYY-MM-DD', the same way (migration 056). */
  passport_expiry: string | null;
}

/** The 需要处理 predicate of common/order.ts (needsAction), as SQL. */
function needsActionWhere(eb: ExpressionBuilder<Database, 'user_order'>, today: string) {
  return eb.or([
    eb.and([eb('user_order.status', '=', 'processing'), eb('user_order.step', 'in', [...CUSTOMER_ACTION_STEPS])]),
    // An open price difference to pay (补差价).
    eb.and([eb('user_order.status', '=', 'processing'), eb('user_order.price_difference_due', '>', 0)]),
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
  'user_order.step_entered_at',
  'user_order.step_due_at',
  'user_order.assignee_operator_id',
  'user_order.review_round',
  'user_order.submitted_date',
  'user_order.price_difference_due',
  'user_order.price_difference_paid',
  'user_order.order_no',
  'user_order.group_name',
  'consular_district.name as consular_district_name',
  'visa_product.visa_country_id',
  'user_order.visa_photo_id',
  'user_order.photo_color',
  'user_order.photo_width',
  'user_order.photo_height',
  'user_order.photo_name',
  'user_order.stay_days',
  'visa_product.consular_district_id as product_district_id',
] as const;

function orderQuery(db: Kysely<Database>) {
  return db
    .selectFrom('user_order')
    .leftJoin('consular_district', 'consular_district.consular_district_id', 'user_order.consular_district_id')
    .innerJoin('visa_product', 'visa_product.visa_product_id', 'user_order.visa_product_id')
    .select(ORDER_COLUMNS);
}

type RawOrderRow = Awaited<ReturnType<ReturnType<typeof orderQuery>['executeTakeFirstOrThrow']>>;

/** The repository edge: flags become booleans, JSON snapshots objects. */
function toOrderRow(raw: RawOrderRow) {
  return {
    ...raw,
    // Rows written outside order_create (a benchmark's bulk insert) may lack it; the rule is one.
    order_no: raw.order_no ?? orderNumber(raw.user_order_id, raw.created_at),
    need_interview: raw.need_interview === 1,
    reject_refund: raw.reject_refund === 1,
    insurance_snapshot: raw.insurance_snapshot === null ? null : fromJson(raw.insurance_snapshot),
    return_address: raw.return_address === null ? null : fromJson(raw.return_address),
  };
}

export type OrderRow = ReturnType<typeof toOrderRow>;

/** One checklist cache per database handle (checklist-version.ts). */
const checklistCaches = new WeakMap<Kysely<Database>, ChecklistCache>();
function checklistCacheOf(db: Kysely<Database>): ChecklistCache {
  let cache = checklistCaches.get(db);
  if (!cache) checklistCaches.set(db, (cache = createChecklistCache()));
  return cache;
}

/**
 * The order's checklist on SQLite (the PostgreSQL create does the same in its
 * statement): each version is stored the first time an order gets it, then the
 * order names its versions.
 */
async function linkChecklist(trx: Transaction<Database>, userOrderId: number, visaProductId: number, versions: ChecklistVersion[], at: number): Promise<void> {
  for (const version of versions) {
    if (version.stored) continue;
    const stored = await trx
      .insertInto('checklist_version')
      .values({ digest: version.digest, visa_product_id: visaProductId, identity_id: version.identity_id, created_at: at })
      .onConflict((oc) => oc.column('digest').doNothing())
      .executeTakeFirst();
    if (Number(stored.numInsertedOrUpdatedRows ?? 0) > 0) {
      await trx
        .insertInto('checklist_version_item')
        .values(version.items.map((item) => ({ digest: version.digest, ...item })))
        .execute();
    }
  }
  if (versions.length === 0) return;
  await trx
    .insertInto('order_checklist')
    .values(versions.map((version) => ({ user_order_id: userOrderId, identity_id: version.identity_id, digest: version.digest })))
    .execute();
}

type SqliteCreate = {
  row: NewOrder & { step: OrderStep | null; updated_at: number; cancelled_at: null; cancel_reason: null; version: number };
  applicants: NewApplicant[];
  checklist: ChecklistVersion[];
  event: NewCreateEvent;
};

/** The create on SQLite: the order row, its number, its applicants, its checklist and its 'create' event. */
async function insertCreatedSqlite(trx: Transaction<Database>, { row, applicants, checklist, event }: SqliteCreate) {
  const { user_order_id } = await trx.insertInto('user_order').values(row).returning('user_order_id').executeTakeFirstOrThrow();
  await trx
    .updateTable('user_order')
    .set({ order_no: orderNumber(user_order_id, row.created_at) })
    .where('user_order_id', '=', user_order_id)
    .execute();
  await trx
    .insertInto('order_applicant')
    .values(applicants.map((applicant, sort) => ({ ...applicant, user_order_id, status: 'pending' as const, sort })))
    .execute();
  await linkChecklist(trx, user_order_id, row.visa_product_id, checklist, row.created_at);
  const { event_id } = await trx
    .insertInto('order_event')
    .values({ user_order_id, ...event, event: 'create', from_status: null, from_step: null })
    .returning('event_id')
    .executeTakeFirstOrThrow();
  return { user_order_id, event_id };
}

const sqliteCreates = new WeakMap<Kysely<Database>, (create: SqliteCreate) => Promise<{ user_order_id: number; event_id: number }>>();

export function createOrderRepository(db: Kysely<Database>) {
  return {
    /** What an order needs to know about the product at the time it is placed. */
    productForOrder(visaProductId: number) {
      return db
        .selectFrom('visa_product')
        .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
        .innerJoin('visa_type', 'visa_type.visa_type_id', 'visa_product.visa_type_id')
        .leftJoin('photo_param', 'photo_param.visa_photo_id', 'visa_product.visa_photo_id')
        .select([
          'visa_product.visa_product_id',
          'visa_product.visa_country_id',
          'visa_product.consular_district_id',
          'visa_product.entry_times',
          'visa_product.product_special_desc',
          'visa_product.need_days',
          'visa_product.stay_days',
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
          'photo_param.visa_photo_id as photo_id',
          'photo_param.color as photo_color',
          'photo_param.width as photo_width',
          'photo_param.height as photo_height',
          'photo_param.name as photo_name',
          'visa_product.checklist_serial',
        ])
        .where('visa_product.visa_product_id', '=', visaProductId)
        .modifyEnd(prepared)
        .executeTakeFirst();
    },

    /**
     * The checklist versions of these identities for the product as it is at
     * checklist_serial: from this process's cache, or read (with the serial
     * they were read at) when not seen yet.
     */
    async checklistFor(visaProductId: number, serial: number, identityIds: number[]): Promise<ChecklistVersion[]> {
      const cache = checklistCacheOf(db);
      const wanted = [...new Set(identityIds)];
      const found = new Map(wanted.map((id) => [id, cache.get(visaProductId, serial, id)]));
      const missing = wanted.filter((id) => found.get(id) === undefined);
      if (missing.length > 0) {
        const rows = await db
          .selectFrom('visa_product as p')
          .leftJoin('visa_product_material as m', (join) =>
            join.onRef('m.visa_product_id', '=', 'p.visa_product_id').on('m.retired', '=', 0).on('m.identity_id', 'in', missing),
          )
          .select(['p.checklist_serial', 'm.material_id', 'm.identity_id', 'm.required', 'm.attr', 'm.name', 'm.attention', 'm.sample', 'm.sort'])
          .where('p.visa_product_id', '=', visaProductId)
          .execute();
        const readAt = rows[0]?.checklist_serial ?? serial;
        // A product without materials of these identities reads one row of nulls (the left join).
        const versions = checklistVersions(rows.flatMap(({ checklist_serial: _, ...item }) => (item.material_id === null ? [] : [item as ChecklistItem])));
        for (const id of missing) {
          const version = versions.find((v) => v.identity_id === id) ?? null;
          cache.set(visaProductId, readAt, id, version);
          found.set(id, version);
        }
      }
      return wanted.flatMap((id) => found.get(id) ?? []);
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

    /**
     * The lifecycle's create: the order row, its applicants and its 'create'
     * event, all or nothing. On PostgreSQL that is one statement (data-modifying
     * CTEs, the applicants as arrays in their order), which PostgreSQL runs
     * atomically: no BEGIN/COMMIT round trips — order_create is the busiest
     * write (`npm run bench:order`). SQLite takes no INSERT inside WITH; its
     * statements are calls, so there it is a transaction of three.
     */
    async insertCreated(
      order: NewOrder,
      applicants: NewApplicant[],
      checklist: ChecklistVersion[],
      event: NewCreateEvent,
    ): Promise<{ user_order_id: number; event_id: number }> {
      const row = { step: null, ...order, updated_at: order.created_at, cancelled_at: null, cancel_reason: null, version: 0 };
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        // The id is drawn first so that the order number (common/order-number.ts) goes in with the row.
        const id = sql<number>`(select id from new_id)`;
        // Items only of versions this process has not seen stored; stored only by the order that stores the version.
        const items = checklist.filter((version) => !version.stored).flatMap((version) => version.items.map((item) => ({ digest: version.digest, ...item })));
        const orderNo = sql<string>`${orderNumberPrefix(order.created_at)} || lpad(${id}::text, greatest(6, length(${id}::text)), '0')`;
        const insertOrder = db
          .insertInto('user_order')
          .values({ ...row, user_order_id: id, order_no: orderNo })
          .returning('user_order_id');
        const { rows } = await sql<{ user_order_id: number; event_id: number }>`
          with new_id as (select nextval(pg_get_serial_sequence('user_order', 'user_order_id'))::integer as id),
          new_order as (${insertOrder}),
          new_applicants as (
            insert into order_applicant (user_order_id, name, identity_id, mobile_phone, email, passport_no, passport_expiry, status, sort)
            select new_order.user_order_id, a.name, a.identity_id, a.mobile_phone, a.email, a.passport_no, a.passport_expiry, 'pending', a.sort
            from new_order,
              unnest(
                ${applicants.map((a) => a.name)}::text[],
                ${applicants.map((a) => a.identity_id)}::integer[],
                ${applicants.map((a) => a.mobile_phone)}::text[],
                ${applicants.map((a) => a.email)}::text[],
                ${applicants.map((a) => a.passport_no)}::text[],
                ${applicants.map((a) => a.passport_expiry)}::text[],
                ${applicants.map((_, sort) => sort)}::integer[]
              ) as a(name, identity_id, mobile_phone, email, passport_no, passport_expiry, sort)
            order by a.sort
          ),
          new_versions as (
            insert into checklist_version (digest, visa_product_id, identity_id, created_at)
            select v.digest, ${order.visa_product_id}::integer, v.identity_id, ${order.created_at}::bigint
            from unnest(${checklist.map((v) => v.digest)}::text[], ${checklist.map((v) => v.identity_id)}::integer[]) as v(digest, identity_id)
            on conflict (digest) do nothing
            returning digest
          ),
          new_version_items as (
            insert into checklist_version_item (digest, material_id, identity_id, required, attr, name, attention, sample, sort)
            select i.digest, i.material_id, i.identity_id, i.required, i.attr, i.name, i.attention, i.sample, i.sort
            from unnest(
                ${items.map((i) => i.digest)}::text[],
                ${items.map((i) => i.material_id)}::integer[],
                ${items.map((i) => i.identity_id)}::integer[],
                ${items.map((i) => i.required)}::integer[],
                ${items.map((i) => i.attr)}::integer[],
                ${items.map((i) => i.name)}::text[],
                ${items.map((i) => i.attention)}::text[],
                ${items.map((i) => i.sample)}::text[],
                ${items.map((i) => i.sort)}::integer[]
              ) as i(digest, material_id, identity_id, required, attr, name, attention, sample, sort)
            where i.digest in (select digest from new_versions)
          ),
          new_checklist as (
            insert into order_checklist (user_order_id, identity_id, digest)
            select new_order.user_order_id, v.identity_id, v.digest
            from new_order, unnest(${checklist.map((v) => v.digest)}::text[], ${checklist.map((v) => v.identity_id)}::integer[]) as v(digest, identity_id)
          ),
          new_event as (
            insert into order_event (user_order_id, actor, actor_id, event, from_status, to_status, from_step, to_step, detail, created_at)
            select new_order.user_order_id, ${event.actor}, ${event.actor_id}::integer, 'create', null, ${event.to_status}, null, ${event.to_step}, ${event.detail}, ${event.created_at}::bigint
            from new_order
            returning user_order_id, event_id
          )
          select user_order_id, event_id from new_event ${prepared}`.execute(db);
        for (const version of checklist) version.stored = true;
        return rows[0]!;
      }
      // SQLite: orders placed at the same moment share one transaction (group-commit.ts).
      let creates = sqliteCreates.get(db);
      if (!creates) sqliteCreates.set(db, (creates = groupCommit(db, insertCreatedSqlite)));
      const created = await creates({ row, applicants, checklist, event });
      for (const version of checklist) version.stored = true;
      return created;
    },

    /** One order within the scope; outside it the order is simply not found. */
    async findOrder(scope: OrderScope, userOrderId: number): Promise<OrderRow | undefined> {
      let query = orderQuery(db).where('user_order.user_order_id', '=', userOrderId);
      if (scope.enterpriseId !== undefined) query = query.where('user_order.enterprise_id', '=', scope.enterpriseId);
      const raw = await query.executeTakeFirst();
      return raw && toOrderRow(raw);
    },

    /** placedBy: only the orders this account placed (the list's 我的订单); all of the enterprise's otherwise. */
    async listOrders(enterpriseId: number, tab: OrderListTab, today: string, offset: number, limit: number, placedBy?: number) {
      const filtered = <Q extends { where: any }>(query: Q): Q => {
        let q = query.where('user_order.enterprise_id', '=', enterpriseId);
        if (placedBy !== undefined) q = q.where('user_order.account_id', '=', placedBy);
        if (tab.key === 'action') q = q.where((eb: ExpressionBuilder<Database, 'user_order'>) => needsActionWhere(eb, today));
        else if (tab.key !== 'all') q = q.where('user_order.status', 'in', [...tab.statuses]);
        return q;
      };
      const [rows, count] = await Promise.all([
        filtered(orderQuery(db)).orderBy('user_order.created_at', 'desc').orderBy('user_order.user_order_id', 'desc').offset(offset).limit(limit).execute(),
        filtered(db.selectFrom('user_order'))
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(toOrderRow), total: Number(count.count) };
    },

    async applicants(userOrderIds: number[]) {
      if (userOrderIds.length === 0) return [];
      const rows = await db
        .selectFrom('order_applicant')
        .selectAll()
        .where('user_order_id', 'in', userOrderIds)
        .orderBy('user_order_id')
        .orderBy('sort')
        .orderBy('applicant_id')
        .execute();
      return rows.map((row) => ({ ...row, insured: row.insured === 1 }));
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

    /** The order's payments as people read them: an attempt left open beside a paid one reads 已关闭. */
    async payments(userOrderId: number) {
      const rows = await db
        .selectFrom('payment')
        .select(['out_trade_no', 'channel', 'amount', 'status', 'created_at', 'paid_at', 'price_difference_id'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('payment_id')
        .execute();
      return withAbandonedClosed(rows);
    },

    /** Does the order's checklist ask any of these identities for mailed paper materials (attr 1)? */
    async mailsPaper(userOrderId: number, identityIds: number[]): Promise<boolean> {
      if (identityIds.length === 0) return false;
      const row = await db
        .selectFrom('order_checklist_item')
        .select('material_id')
        .where('user_order_id', '=', userOrderId)
        .where('attr', '=', 1)
        .where('identity_id', 'in', identityIds)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    events(userOrderId: number) {
      return db.selectFrom('order_event').selectAll().where('user_order_id', '=', userOrderId).orderBy('event_id').execute();
    },

    /** Unpaid orders whose expiry time has come, oldest first. */
    async dueUnpaidOrders(at: number, limit: number, scope: OrderScope & { userOrderId?: number } = {}) {
      let query = db
        .selectFrom('user_order')
        .select(['user_order_id', 'status', 'step', 'version', 'expires_at', 'departure_date', 'need_interview'])
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
      const rows = await query.orderBy('expires_at').orderBy('user_order_id').limit(limit).execute();
      return rows.map((row) => ({ ...row, need_interview: row.need_interview === 1 }));
    },
  };
}

export type OrderRepository = ReturnType<typeof createOrderRepository>;
