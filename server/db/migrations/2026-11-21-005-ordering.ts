// Frozen in time: never import application code here.
// The ordering steps of the lifecycle design: uploaded material files,
// interview slots (capacity per consulate and time), national days of the
// destination countries, addresses (return and peer), insurance plans,
// payments and the provider's notifications, plus what the order keeps of
// them (the snapshot of insurance and return address, the effect date).
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = (name: string) => (table: any) =>
    table.addColumn(name, pg ? 'serial' : 'integer', (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()));

  // ── Uploaded materials ──────────────────────────────────────────────────
  // One row per stored file. material_id null = the applicant's visa photo.
  await serial('file_id')(db.schema.createTable('order_material_file'))
    .addColumn('user_order_id', 'integer', (col: any) => col.notNull().references('user_order.user_order_id'))
    .addColumn('applicant_id', 'integer', (col: any) => col.notNull().references('order_applicant.applicant_id'))
    .addColumn('material_id', 'integer', (col: any) => col.references('visa_product_material.material_id'))
    // 'material' or 'photo'
    .addColumn('kind', 'varchar(10)', (col: any) => col.notNull())
    // Where the storage keeps it; never derived from the client's file name.
    .addColumn('storage_key', 'varchar(200)', (col: any) => col.notNull().unique())
    .addColumn('file_name', 'varchar(200)', (col: any) => col.notNull())
    // Detected from the content (magic bytes): image/jpeg, image/png, application/pdf.
    .addColumn('content_type', 'varchar(50)', (col: any) => col.notNull())
    .addColumn('size_bytes', 'integer', (col: any) => col.notNull())
    .addColumn('sha256', 'varchar(64)', (col: any) => col.notNull())
    // pending, passed, no_pass (operators review; issue of the back office).
    .addColumn('review_status', 'varchar(10)', (col: any) => col.notNull().defaultTo('pending'))
    .addColumn('no_pass_memo', 'text')
    .addColumn('account_id', 'integer', (col: any) => col.notNull().references('account.id'))
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addCheckConstraint('order_material_file_kind_check', sql`kind in ('material', 'photo')`)
    .addCheckConstraint('order_material_file_review_check', sql`review_status in ('pending', 'passed', 'no_pass')`)
    .execute();
  await db.schema.createIndex('order_material_file_order_idx').on('order_material_file').columns(['user_order_id', 'applicant_id']).execute();

  // ── Interview / fingerprint slots ───────────────────────────────────────
  // booked <= capacity is a CHECK: the last place goes to exactly one
  // customer because the database refuses the second increment.
  await serial('interview_slot_id')(db.schema.createTable('interview_slot'))
    .addColumn('consular_district_id', 'integer', (col: any) => col.notNull().references('consular_district.consular_district_id'))
    // 'YYYY-MM-DD' and 'HH:MM', local time of the consulate (China time).
    .addColumn('slot_date', 'varchar(10)', (col: any) => col.notNull())
    .addColumn('start_time', 'varchar(5)', (col: any) => col.notNull())
    .addColumn('end_time', 'varchar(5)', (col: any) => col.notNull())
    .addColumn('capacity', 'integer', (col: any) => col.notNull())
    .addColumn('booked', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addUniqueConstraint('interview_slot_unique', ['consular_district_id', 'slot_date', 'start_time'])
    .addCheckConstraint('interview_slot_capacity_check', sql`booked >= 0 and booked <= capacity and capacity >= 0`)
    .execute();

  // Days the destination's missions are closed (national days); 'MM-DD'.
  await db.schema
    .createTable('country_national_day')
    .addColumn('visa_country_id', 'integer', (col) => col.notNull().references('visa_country.visa_country_id'))
    .addColumn('month_day', 'varchar(5)', (col) => col.notNull())
    .addColumn('name', 'varchar(50)', (col) => col.notNull())
    .addPrimaryKeyConstraint('country_national_day_pk', ['visa_country_id', 'month_day'])
    .execute();

  // ── Addresses ───────────────────────────────────────────────────────────
  // An enterprise's address book: 'return' addresses (where passports come
  // back) and 'peer' addresses (partner agencies it forwards passports to).
  await serial('address_id')(db.schema.createTable('address'))
    .addColumn('enterprise_id', 'integer', (col: any) => col.notNull().references('enterprise.id'))
    .addColumn('account_id', 'integer', (col: any) => col.notNull().references('account.id'))
    .addColumn('kind', 'varchar(10)', (col: any) => col.notNull())
    // Peer agency's name; null for return addresses.
    .addColumn('company_name', 'varchar(100)')
    .addColumn('name', 'varchar(50)', (col: any) => col.notNull())
    .addColumn('mobile_phone', 'varchar(20)', (col: any) => col.notNull())
    // Codes of the address library (spec §3).
    .addColumn('province_code', 'varchar(6)', (col: any) => col.notNull())
    .addColumn('city_code', 'varchar(6)', (col: any) => col.notNull())
    .addColumn('county_code', 'varchar(6)', (col: any) => col.notNull())
    .addColumn('detail', 'varchar(200)', (col: any) => col.notNull())
    .addColumn('is_default', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addColumn('updated_at', time, (col: any) => col.notNull())
    .addCheckConstraint('address_kind_check', sql`kind in ('return', 'peer')`)
    .execute();
  await db.schema.createIndex('address_enterprise_idx').on('address').columns(['enterprise_id', 'kind']).execute();

  // ── Insurance plans ─────────────────────────────────────────────────────
  await serial('insurance_plan_id')(db.schema.createTable('insurance_plan'))
    .addColumn('name', 'varchar(50)', (col: any) => col.notNull())
    .addColumn('company', 'varchar(50)', (col: any) => col.notNull())
    .addColumn('description', 'varchar(200)', (col: any) => col.notNull())
    // cents per insured person per day
    .addColumn('price_per_day', 'integer', (col: any) => col.notNull())
    .addColumn('min_days', 'integer', (col: any) => col.notNull())
    .addColumn('max_days', 'integer', (col: any) => col.notNull())
    // JSON [{ "name": "意外身故/伤残", "amount": "30万" }, …]
    .addColumn('items', 'text', (col: any) => col.notNull())
    .addColumn('sort', 'integer', (col: any) => col.notNull())
    // 0 on sale, 1 withdrawn
    .addColumn('status', 'integer', (col: any) => col.notNull().defaultTo(0))
    .execute();

  // ── Payments ────────────────────────────────────────────────────────────
  // One row per payment attempt (a QR code). At most one paid payment per
  // order: a partial unique index, so "paid twice" cannot be stored.
  await serial('payment_id')(db.schema.createTable('payment'))
    .addColumn('user_order_id', 'integer', (col: any) => col.notNull().references('user_order.user_order_id'))
    // Our number for the provider (out_trade_no), unique.
    .addColumn('out_trade_no', 'varchar(40)', (col: any) => col.notNull().unique())
    .addColumn('provider', 'varchar(20)', (col: any) => col.notNull())
    // 'wechat' or 'alipay'
    .addColumn('channel', 'varchar(10)', (col: any) => col.notNull())
    // cents; equals the order's total when created
    .addColumn('amount', 'integer', (col: any) => col.notNull())
    // pending, paid, closed, refund_pending (money arrived for an order that was
    // already paid by another payment or closed: it has to go back).
    .addColumn('status', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('provider_trade_no', 'varchar(64)')
    .addColumn('code_url', 'varchar(500)', (col: any) => col.notNull())
    .addColumn('account_id', 'integer', (col: any) => col.notNull().references('account.id'))
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addColumn('expires_at', time, (col: any) => col.notNull())
    .addColumn('paid_at', time)
    .addCheckConstraint('payment_status_check', sql`status in ('pending', 'paid', 'closed', 'refund_pending')`)
    .addCheckConstraint('payment_amount_check', sql`amount > 0`)
    .execute();
  await db.schema.createIndex('payment_order_idx').on('payment').column('user_order_id').execute();
  await db.schema.createIndex('payment_one_paid_per_order').on('payment').column('user_order_id').unique().where(sql.ref('status'), '=', 'paid').execute();

  // Every notification the provider sent, verified or not (audit and idempotency).
  await serial('payment_notification_id')(db.schema.createTable('payment_notification'))
    .addColumn('provider', 'varchar(20)', (col: any) => col.notNull())
    // The provider's id of this notification; a repeat carries the same id.
    .addColumn('notify_id', 'varchar(64)')
    .addColumn('out_trade_no', 'varchar(40)')
    .addColumn('body', 'text', (col: any) => col.notNull())
    .addColumn('signature_valid', 'integer', (col: any) => col.notNull())
    // What we did: paid, duplicate, amount_mismatch, bad_signature, unknown_trade, order_closed …
    .addColumn('outcome', 'varchar(30)', (col: any) => col.notNull())
    .addColumn('received_at', time, (col: any) => col.notNull())
    .execute();
  await db.schema.createIndex('payment_notification_trade_idx').on('payment_notification').column('out_trade_no').execute();

  // ── What the order keeps ────────────────────────────────────────────────
  const orderColumns: Array<[string, string, (col: any) => any]> = [
    // The date the visa should take effect (upload step's select); null = departure date.
    ['effect_date', 'varchar(10)', (col) => col],
    // unit_price × applicant_count; total_amount = product_amount + insurance_amount − discount_amount.
    ['product_amount', 'integer', (col) => col.notNull().defaultTo(0)],
    ['insurance_plan_id', 'integer', (col) => col.references('insurance_plan.insurance_plan_id')],
    // JSON snapshot: plan name, company, items, price_per_day, days, start/end date.
    ['insurance_snapshot', 'text', (col) => col],
    ['insurance_amount', 'integer', (col) => col.notNull().defaultTo(0)],
    ['discount_amount', 'integer', (col) => col.notNull().defaultTo(0)],
    // JSON snapshot of the chosen return address, with the names of its codes.
    ['return_address', 'text', (col) => col],
    ['confirmed_at', time, (col) => col],
    ['paid_at', time, (col) => col],
  ];
  for (const [name, type, build] of orderColumns) {
    await db.schema
      .alterTable('user_order')
      .addColumn(name, type as any, build)
      .execute();
  }
  await db
    .updateTable('user_order')
    .set({ product_amount: sql`unit_price * applicant_count` })
    .execute();

  await db.schema
    .alterTable('order_applicant')
    .addColumn('interview_slot_id', 'integer', (col) => col.references('interview_slot.interview_slot_id'))
    .execute();
  // Whether this applicant is covered by the order's insurance plan.
  await db.schema
    .alterTable('order_applicant')
    .addColumn('insured', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['insured', 'interview_slot_id']) {
    await db.schema.alterTable('order_applicant').dropColumn(column).execute();
  }
  for (const column of [
    'paid_at',
    'confirmed_at',
    'return_address',
    'discount_amount',
    'insurance_amount',
    'insurance_snapshot',
    'insurance_plan_id',
    'product_amount',
    'effect_date',
  ]) {
    await db.schema.alterTable('user_order').dropColumn(column).execute();
  }
  for (const table of ['payment_notification', 'payment', 'insurance_plan', 'address', 'country_national_day', 'interview_slot', 'order_material_file']) {
    await db.schema.dropTable(table).execute();
  }
}
