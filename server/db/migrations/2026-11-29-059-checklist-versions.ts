// Frozen in time: never import application code here.
// Orders share their checklist snapshot instead of each copying it (issue 24,
// bench:order). Migration 047 copied the product's checklist into every order:
// about 24 rows of Chinese text per order, most of each order_create's writes
// (SQLite spent 25% of its CPU inserting them and most of the rest committing
// them). A checklist is the same for thousands of orders, so now:
// - checklist_version: one identity's checklist of one product as it was at some
//   moment, named by the SHA-256 of its items (digest): immutable, never deleted,
//   shared by every order placed while the product showed that list.
// - checklist_version_item: its items (the columns order_checklist_item had).
// - order_checklist: which version each of the order's identities got (one or a
//   few rows per order).
// - order_checklist_item becomes a view with the table's columns, read as before
//   (materials, review, mail, interview notice, workbench): the versions' items
//   of an order that has versions, else its copied rows (order_checklist_copy,
//   the old table renamed).
// - visa_product.checklist_serial: moved by triggers on every insert, update or
//   delete of the product's materials, so that a process may keep the versions
//   it has seen by (product, serial, identity) and no writer can forget to say
//   the list changed.
// The previous release keeps working during a rolling upgrade (docs/deploy.md):
// it reads order_checklist_item as it did (now the view, so it sees the
// versions of orders placed on new instances too), and the copies it still
// inserts there go to order_checklist_copy (an INSTEAD OF trigger). The existing
// copies are also moved into versions here; an order that has versions is read
// from them. A later release drops order_checklist_copy and the trigger.
// Existing orders' rows move into versions; the digest is computed here the way
// server/modules/order/checklist-version.ts computes it (a mismatch would only
// store one list twice, never give an order another list).
import { createHash } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

type Item = {
  material_id: number;
  identity_id: number;
  required: number;
  attr: number;
  name: string;
  attention: string;
  sample: string | null;
  sort: number;
};

function digestOf(items: Item[]): string {
  const sorted = [...items].sort((a, b) => a.material_id - b.material_id);
  const canonical = sorted.map((i) => [i.material_id, i.identity_id, i.required, i.attr, i.name, i.attention, i.sample, i.sort]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('checklist_version')
    .addColumn('digest', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('visa_product_id', 'integer', (col) => col.notNull())
    .addColumn('identity_id', 'integer', (col) => col.notNull())
    .addColumn('created_at', pg ? 'bigint' : 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('checklist_version_item')
    .addColumn('digest', 'varchar(64)', (col) => col.notNull().references('checklist_version.digest'))
    .addColumn('material_id', 'integer', (col) => col.notNull())
    .addColumn('identity_id', 'integer', (col) => col.notNull())
    .addColumn('required', 'integer', (col) => col.notNull())
    .addColumn('attr', 'integer', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('attention', 'text', (col) => col.notNull())
    .addColumn('sample', 'text')
    .addColumn('sort', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('checklist_version_item_pk', ['digest', 'material_id'])
    .execute();
  // Is a material still listed by some order's checklist? (catalogue-io/remove-materials.ts: a version
  // is only ever stored with the order that first gets it, so a version's material is an order's.)
  await db.schema.createIndex('checklist_version_item_material_idx').on('checklist_version_item').column('material_id').execute();
  await db.schema
    .createTable('order_checklist')
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    .addColumn('identity_id', 'integer', (col) => col.notNull())
    .addColumn('digest', 'varchar(64)', (col) => col.notNull().references('checklist_version.digest'))
    .addPrimaryKeyConstraint('order_checklist_pk', ['user_order_id', 'identity_id'])
    .execute();
  // 053 made user_order_enterprise_created_idx, the same columns as 004's user_order_enterprise_idx:
  // every order insert wrote both. One is enough.
  await db.schema.dropIndex('user_order_enterprise_created_idx').execute();

  // The existing snapshots, order by order and identity.
  const rows = (await sql<Item & { user_order_id: number }>`select * from order_checklist_item order by user_order_id, identity_id, material_id`.execute(db))
    .rows;
  const groups = new Map<string, Item[]>();
  for (const row of rows) {
    const key = `${row.user_order_id}:${row.identity_id}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const products = new Map(
    (await sql<{ user_order_id: number; visa_product_id: number }>`select user_order_id, visa_product_id from user_order`.execute(db)).rows.map((r) => [
      r.user_order_id,
      r.visa_product_id,
    ]),
  );
  const known = new Set<string>();
  const now = Date.now();
  const links: { user_order_id: number; identity_id: number; digest: string }[] = [];
  for (const [key, items] of groups) {
    const [userOrderId, identityId] = key.split(':').map(Number) as [number, number];
    const digest = digestOf(items);
    if (!known.has(digest)) {
      known.add(digest);
      await db
        .insertInto('checklist_version')
        .values({ digest, visa_product_id: products.get(userOrderId) ?? 0, identity_id: identityId, created_at: now })
        .execute();
      await db
        .insertInto('checklist_version_item')
        .values(
          items.map((i) => ({
            digest,
            material_id: i.material_id,
            identity_id: i.identity_id,
            required: i.required,
            attr: i.attr,
            name: i.name,
            attention: i.attention,
            sample: i.sample,
            sort: i.sort,
          })),
        )
        .execute();
    }
    links.push({ user_order_id: userOrderId, identity_id: identityId, digest });
  }
  for (let i = 0; i < links.length; i += 500)
    await db
      .insertInto('order_checklist')
      .values(links.slice(i, i + 500))
      .execute();

  await db.schema
    .alterTable('visa_product')
    .addColumn('checklist_serial', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  if (pg) {
    await sql`create function visa_product_checklist_changed() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          update visa_product set checklist_serial = checklist_serial + 1 where visa_product_id = old.visa_product_id;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          update visa_product set checklist_serial = checklist_serial + 1 where visa_product_id = new.visa_product_id;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger visa_product_material_changed after insert or update or delete on visa_product_material
      for each row execute function visa_product_checklist_changed()`.execute(db);
  } else {
    const bump = (row: 'new' | 'old') =>
      sql.raw(`update visa_product set checklist_serial = checklist_serial + 1 where visa_product_id = ${row}.visa_product_id;`);
    await sql`create trigger visa_product_material_inserted after insert on visa_product_material begin ${bump('new')} end`.execute(db);
    await sql`create trigger visa_product_material_updated after update on visa_product_material begin ${bump('old')} ${bump('new')} end`.execute(db);
    await sql`create trigger visa_product_material_deleted after delete on visa_product_material begin ${bump('old')} end`.execute(db);
  }

  // The copies become order_checklist_copy, and order_checklist_item the view every reader reads.
  await db.schema.alterTable('order_checklist_item').renameTo('order_checklist_copy').execute();
  await db.schema
    .createView('order_checklist_item')
    .as(
      db
        .selectFrom('order_checklist as oc')
        .innerJoin('checklist_version_item as i', 'i.digest', 'oc.digest')
        .select(['oc.user_order_id', 'i.material_id', 'oc.identity_id', 'i.required', 'i.attr', 'i.name', 'i.attention', 'i.sample', 'i.sort'])
        .unionAll(
          db
            .selectFrom('order_checklist_copy as c')
            .select(['c.user_order_id', 'c.material_id', 'c.identity_id', 'c.required', 'c.attr', 'c.name', 'c.attention', 'c.sample', 'c.sort'])
            .where((eb) =>
              eb.not(eb.exists(eb.selectFrom('order_checklist as oc').select('oc.user_order_id').whereRef('oc.user_order_id', '=', 'c.user_order_id'))),
            ),
        ),
    )
    .execute();
  // The previous release, during a rolling upgrade, still inserts copies into order_checklist_item: they go to the copies.
  const columns = 'user_order_id, material_id, identity_id, required, attr, name, attention, sample, sort';
  const values = columns
    .split(', ')
    .map((column) => `new.${column}`)
    .join(', ');
  if (pg) {
    await sql`create function order_checklist_item_copied() returns trigger language plpgsql as $$
      begin
        insert into order_checklist_copy (${sql.raw(columns)}) values (${sql.raw(values)});
        return new;
      end $$`.execute(db);
    await sql`create trigger order_checklist_item_insert instead of insert on order_checklist_item
      for each row execute function order_checklist_item_copied()`.execute(db);
  } else {
    await sql`create trigger order_checklist_item_insert instead of insert on order_checklist_item
      begin insert into order_checklist_copy (${sql.raw(columns)}) values (${sql.raw(values)}); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (pg) {
    await sql`drop trigger visa_product_material_changed on visa_product_material`.execute(db);
    await sql`drop function visa_product_checklist_changed()`.execute(db);
  } else {
    for (const name of ['visa_product_material_inserted', 'visa_product_material_updated', 'visa_product_material_deleted']) {
      await sql`drop trigger ${sql.raw(name)}`.execute(db);
    }
  }
  await db.schema.alterTable('visa_product').dropColumn('checklist_serial').execute();
  if (pg) {
    await sql`drop trigger order_checklist_item_insert on order_checklist_item`.execute(db);
    await sql`drop function order_checklist_item_copied()`.execute(db);
  } else {
    await sql`drop trigger order_checklist_item_insert`.execute(db);
  }
  await db.schema.dropView('order_checklist_item').execute();
  // Orders placed since get their copies back (the table kept those placed before).
  await sql`insert into order_checklist_copy (user_order_id, material_id, identity_id, required, attr, name, attention, sample, sort)
    select oc.user_order_id, i.material_id, oc.identity_id, i.required, i.attr, i.name, i.attention, i.sample, i.sort
    from order_checklist oc join checklist_version_item i on i.digest = oc.digest
    where not exists (select 1 from order_checklist_copy c where c.user_order_id = oc.user_order_id)`.execute(db);
  await db.schema.alterTable('order_checklist_copy').renameTo('order_checklist_item').execute();
  await db.schema.createIndex('user_order_enterprise_created_idx').on('user_order').columns(['enterprise_id', 'created_at']).execute();
  await db.schema.dropTable('order_checklist').execute();
  await db.schema.dropTable('checklist_version_item').execute();
  await db.schema.dropTable('checklist_version').execute();
}
