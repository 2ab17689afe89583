// The bench:queue data, shared by bench:queue and bench:admin-pages: an
// enterprise of the bench's own with `orders` orders in processing (two
// applicants each), spread over the processing steps, entered 0–10 days ago, due
// 1–5 days after entry (none for interview and returning) — about a third
// overdue — four in five assigned to operators 1–20. PostgreSQL only
// (generate_series); the catalogue must be seeded first.
import { type Kysely, sql } from 'kysely';
import { ORDER_STEP_VALUES } from '../common/order.ts';
import type { Database } from '../server/db/schema.ts';

const DAY = 86_400_000;

export async function insertQueueOrders(db: Kysely<Database>, { orders, now }: { orders: number; now: number }): Promise<void> {
  const { id: enterpriseId } = await db
    .insertInto('enterprise')
    .values({
      name: '压测企业',
      kind: 'company',
      contact_name: null,
      contact_phone: null,
      consultant_name: null,
      consultant_phone: null,
      status: 0,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: accountId } = await db
    .insertInto('account')
    .values({
      enterprise_id: enterpriseId,
      account: `bench_${now.toString(36)}`,
      password_hash: 'x',
      name: '压测',
      mobile_phone: null,
      email: null,
      role: 'admin',
      status: 0,
      created_at: now,
      last_login_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`
    with p as (
      select vp.visa_product_id, vp.need_days,
             coalesce(vp.consular_district_id, (select min(d.consular_district_id) from consular_district d where d.visa_country_id = vp.visa_country_id)) as district,
             c.name as country, t.name as visa_type,
             row_number() over (order by vp.visa_product_id) - 1 as rn,
             count(*) over () as n
      from visa_product vp join visa_country c on c.visa_country_id = vp.visa_country_id join visa_type t on t.visa_type_id = vp.visa_type_id
      where vp.status = 0
    ), g as (
      select g, (${ORDER_STEP_VALUES}::text[])[1 + g % ${ORDER_STEP_VALUES.length}] as step,
             ${now}::bigint - ((g * 7919) % 10) * ${DAY}::bigint - (g % 86400) * 1000 as entered
      from generate_series(1, ${orders}) g
    )
    insert into user_order (enterprise_id, account_id, visa_product_id, consular_district_id, status, step, departure_date, order_date,
      product_title, country, visa_type, need_interview, reject_refund, unit_price, applicant_count, total_amount, product_amount,
      created_at, updated_at, expires_at, paid_at, step_entered_at, step_due_at, assignee_operator_id, review_round)
    select ${enterpriseId}, ${accountId}, p.visa_product_id, p.district, 'processing', g.step,
      to_char(to_timestamp((${now} + (g.g % 60) * ${DAY}::bigint) / 1000), 'YYYY-MM-DD'), to_char(to_timestamp(g.entered / 1000), 'YYYY-MM-DD'),
      p.country || p.visa_type || '签证', p.country, p.visa_type, 0, 0, 50000, 2, 100000, 100000,
      g.entered, g.entered, null, g.entered, g.entered,
      case when g.step in ('interview', 'returning') then null else g.entered + (1 + g.g % 5) * ${DAY}::bigint end,
      case when g.g % 5 = 0 then null else 1 + g.g % 20 end, 1
    from g join p on p.rn = g.g % p.n
  `.execute(db);
  await sql`
    insert into order_applicant (user_order_id, name, identity_id, mobile_phone, sort)
    select user_order_id, '申请人' || user_order_id, 0, '139' || lpad(user_order_id::text, 8, '0'), 0 from user_order where enterprise_id = ${enterpriseId}
    union all
    select user_order_id, '同行人' || user_order_id, 1, '137' || lpad(user_order_id::text, 8, '0'), 1 from user_order where enterprise_id = ${enterpriseId}
  `.execute(db);
  // The steady state of a live table: autovacuum has set the visibility map (index-only scans skip the heap).
  await sql`vacuum analyze`.execute(db);
}
