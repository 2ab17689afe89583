// Frozen in time: never import application code here.
// The visa catalogue of spec §3: continents, countries, consular districts
// (which provinces each consulate serves), visa types, tags, photo
// parameters, products and their materials, process steps, procedure icons,
// feature items, basic info and reviews.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = (name: string) => (table: any) =>
    table.addColumn(name, pg ? 'serial' : 'integer', (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()));

  await db.schema
    .createTable('continent')
    .addColumn('continent_id', 'integer', (col) => col.primaryKey())
    .addColumn('name', 'varchar(20)', (col) => col.notNull())
    .addColumn('name_en', 'varchar(40)', (col) => col.notNull())
    .addColumn('sort', 'integer', (col) => col.notNull())
    .execute();

  await serial('visa_country_id')(db.schema.createTable('visa_country'))
    .addColumn('iso_code', 'varchar(2)', (col: any) => col.notNull().unique())
    .addColumn('name', 'varchar(50)', (col: any) => col.notNull())
    .addColumn('name_en', 'varchar(80)', (col: any) => col.notNull())
    .addColumn('continent_id', 'integer', (col: any) => col.notNull().references('continent.continent_id'))
    .addColumn('description', 'text', (col: any) => col.notNull())
    .addColumn('hot', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('status', 'integer', (col: any) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('visa_country_continent_idx').on('visa_country').column('continent_id').execute();

  await serial('consular_district_id')(db.schema.createTable('consular_district'))
    .addColumn('visa_country_id', 'integer', (col: any) => col.notNull().references('visa_country.visa_country_id'))
    .addColumn('name', 'varchar(50)', (col: any) => col.notNull())
    .addColumn('consulate_name', 'varchar(100)', (col: any) => col.notNull())
    .addColumn('city', 'varchar(30)', (col: any) => col.notNull())
    .addColumn('address', 'varchar(200)', (col: any) => col.notNull())
    .execute();
  await db.schema.createIndex('consular_district_country_idx').on('consular_district').column('visa_country_id').execute();

  await db.schema
    .createTable('consular_district_province')
    .addColumn('consular_district_id', 'integer', (col) => col.notNull().references('consular_district.consular_district_id'))
    .addColumn('province_code', 'varchar(6)', (col) => col.notNull())
    .addPrimaryKeyConstraint('consular_district_province_pk', ['consular_district_id', 'province_code'])
    .execute();
  await db.schema.createIndex('consular_district_province_code_idx').on('consular_district_province').column('province_code').execute();

  await serial('visa_type_id')(db.schema.createTable('visa_type'))
    .addColumn('name', 'varchar(30)', (col: any) => col.notNull().unique())
    .addColumn('sort', 'integer', (col: any) => col.notNull())
    .execute();

  await serial('tag_id')(db.schema.createTable('visa_tag'))
    .addColumn('name', 'varchar(30)', (col: any) => col.notNull().unique())
    .addColumn('sort', 'integer', (col: any) => col.notNull())
    .execute();

  await serial('visa_photo_id')(db.schema.createTable('photo_param'))
    .addColumn('color', 'integer', (col: any) => col.notNull())
    .addColumn('width', 'integer', (col: any) => col.notNull())
    .addColumn('height', 'integer', (col: any) => col.notNull())
    .addColumn('name', 'varchar(50)', (col: any) => col.notNull())
    .execute();

  await serial('visa_product_id')(db.schema.createTable('visa_product'))
    .addColumn('visa_country_id', 'integer', (col: any) => col.notNull().references('visa_country.visa_country_id'))
    .addColumn('visa_type_id', 'integer', (col: any) => col.notNull().references('visa_type.visa_type_id'))
    // null: one product for every consular district (e-visas, visas handled centrally).
    .addColumn('consular_district_id', 'integer', (col: any) => col.references('consular_district.consular_district_id'))
    .addColumn('product_special_desc', 'varchar(100)', (col: any) => col.notNull())
    .addColumn('entry_times', 'integer', (col: any) => col.notNull())
    .addColumn('stay_days', 'integer', (col: any) => col.notNull())
    .addColumn('valid_days', 'integer', (col: any) => col.notNull())
    .addColumn('need_days', 'integer', (col: any) => col.notNull())
    .addColumn('need_days_detail', 'varchar(100)', (col: any) => col.notNull())
    .addColumn('pass_rate', 'integer', (col: any) => col.notNull())
    .addColumn('sell_price', 'integer', (col: any) => col.notNull())
    .addColumn('distributor_discount_desc', 'varchar(50)')
    .addColumn('distributor_discount_price', 'integer')
    .addColumn('status', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('channel', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('offline', 'integer', (col: any) => col.notNull())
    .addColumn('reject_refund', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('need_interview', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('visa_photo_id', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('reminder', 'text', (col: any) => col.notNull())
    .addColumn('updated_at', time, (col: any) => col.notNull())
    .execute();
  await db.schema.createIndex('visa_product_country_idx').on('visa_product').column('visa_country_id').execute();

  await db.schema
    .createTable('visa_product_tag')
    .addColumn('visa_product_id', 'integer', (col) => col.notNull().references('visa_product.visa_product_id'))
    .addColumn('tag_id', 'integer', (col) => col.notNull().references('visa_tag.tag_id'))
    .addPrimaryKeyConstraint('visa_product_tag_pk', ['visa_product_id', 'tag_id'])
    .execute();

  // Ordered lists that belong to one product.
  for (const [table, columns] of [
    [
      'visa_product_basic_info',
      [
        ['title', 'varchar(50)'],
        ['content', 'text'],
      ],
    ],
    [
      'visa_product_feature',
      [
        ['type', 'integer'],
        ['num', 'integer'],
        ['unit', 'varchar(50)'],
        ['title', 'varchar(50)'],
      ],
    ],
    [
      'visa_product_procedure',
      [
        ['icon', 'varchar(50)'],
        ['title', 'varchar(50)'],
      ],
    ],
    [
      'visa_product_process_step',
      [
        ['title', 'varchar(100)'],
        ['content', 'text'],
      ],
    ],
  ] as const) {
    let builder: any = serial('id')(db.schema.createTable(table))
      .addColumn('visa_product_id', 'integer', (col: any) => col.notNull().references('visa_product.visa_product_id'))
      .addColumn('sort', 'integer', (col: any) => col.notNull());
    for (const [name, type] of columns) builder = builder.addColumn(name, type, (col: any) => col.notNull());
    await builder.execute();
    await db.schema.createIndex(`${table}_product_idx`).on(table).column('visa_product_id').execute();
  }

  await serial('material_id')(db.schema.createTable('visa_product_material'))
    .addColumn('visa_product_id', 'integer', (col: any) => col.notNull().references('visa_product.visa_product_id'))
    .addColumn('identity_id', 'integer', (col: any) => col.notNull())
    .addColumn('required', 'integer', (col: any) => col.notNull())
    .addColumn('attr', 'integer', (col: any) => col.notNull())
    .addColumn('name', 'varchar(100)', (col: any) => col.notNull())
    .addColumn('attention', 'text', (col: any) => col.notNull())
    .addColumn('sample', 'varchar(200)')
    .addColumn('sort', 'integer', (col: any) => col.notNull())
    .execute();
  await db.schema.createIndex('visa_product_material_product_idx').on('visa_product_material').columns(['visa_product_id', 'identity_id']).execute();

  await serial('review_id')(db.schema.createTable('visa_product_review'))
    .addColumn('visa_product_id', 'integer', (col: any) => col.notNull().references('visa_product.visa_product_id'))
    .addColumn('nickname', 'varchar(50)')
    .addColumn('mobile_phone', 'varchar(20)')
    .addColumn('score', 'integer', (col: any) => col.notNull())
    .addColumn('content', 'text', (col: any) => col.notNull())
    .addColumn('platform', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('create_time', time, (col: any) => col.notNull())
    .execute();
  await db.schema.createIndex('visa_product_review_product_idx').on('visa_product_review').columns(['visa_product_id', 'create_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'visa_product_review',
    'visa_product_material',
    'visa_product_process_step',
    'visa_product_procedure',
    'visa_product_feature',
    'visa_product_basic_info',
    'visa_product_tag',
    'visa_product',
    'photo_param',
    'visa_tag',
    'visa_type',
    'consular_district_province',
    'consular_district',
    'visa_country',
    'continent',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
