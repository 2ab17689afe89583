// Frozen in time: never import application code here.
// Interview / biometrics slots run from the back office (issue 26,
// server/modules/catalogue-admin/slot-admin.service.ts). A closure is one day
// a consulate does not receive applicants (beside the country's yearly
// national days and China's holidays, which the calendar already knows); the
// slot calendar skips it. Every change a supervisor makes to a consulate's
// slots or closures is kept: who, when, what (a Chinese summary and JSON).
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = pg ? 'serial' : 'integer';

  await db.schema
    .createTable('interview_closure')
    .addColumn('consular_district_id', 'integer', (col) => col.notNull().references('consular_district.consular_district_id'))
    // 'YYYY-MM-DD' (China time), as interview_slot.slot_date.
    .addColumn('closure_date', 'varchar(10)', (col) => col.notNull())
    .addColumn('reason', 'varchar(50)', (col) => col.notNull())
    .addColumn('created_by', 'integer', (col) => col.notNull().references('operator.id'))
    .addColumn('created_at', time, (col) => col.notNull())
    .addPrimaryKeyConstraint('interview_closure_pk', ['consular_district_id', 'closure_date'])
    .execute();

  await db.schema
    .createTable('interview_slot_audit')
    .addColumn('audit_id', serial, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('consular_district_id', 'integer', (col) => col.notNull().references('consular_district.consular_district_id'))
    .addColumn('operator_id', 'integer', (col) => col.notNull().references('operator.id'))
    .addColumn('changed_at', time, (col) => col.notNull())
    // generate | capacity | delete | close | reopen
    .addColumn('action', 'varchar(20)', (col) => col.notNull())
    .addColumn('summary', 'varchar(500)', (col) => col.notNull())
    // The call's input and what it did (JSON).
    .addColumn('detail', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('interview_slot_audit_district_idx').on('interview_slot_audit').columns(['consular_district_id', 'changed_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('interview_slot_audit').execute();
  await db.schema.dropTable('interview_closure').execute();
}
