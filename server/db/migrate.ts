// Applies the migrations in server/db/migrations at start-up. The list is
// static so the migrator works the same from sources and from tests.
import { DEFAULT_MIGRATION_TABLE, type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import * as accounts from './migrations/2026-11-21-001-accounts.ts';
import * as catalogue from './migrations/2026-11-21-002-catalogue.ts';
import * as rateLimit from './migrations/2026-11-21-003-rate-limit.ts';
import * as orders from './migrations/2026-11-21-004-orders.ts';
import * as ordering from './migrations/2026-11-21-005-ordering.ts';
import * as paymentSandbox from './migrations/2026-11-21-006-payment-sandbox.ts';
import * as lifecycle from './migrations/2026-11-22-007-lifecycle.ts';
import * as courier from './migrations/2026-11-24-008-courier.ts';
import * as operators from './migrations/2026-11-24-009-operators.ts';
import * as notices from './migrations/2026-11-24-010-notices.ts';
import * as review from './migrations/2026-11-24-011-review.ts';
import * as pageCheck from './migrations/2026-11-24-013-page-check.ts';
import * as interviewNotice from './migrations/2026-11-24-014-interview-notice.ts';
import * as priceDifference from './migrations/2026-11-24-015-price-difference.ts';
import * as visaResults from './migrations/2026-11-24-016-visa-results.ts';
import * as refunds from './migrations/2026-11-24-017-refunds.ts';
import * as shipBack from './migrations/2026-11-24-018-ship-back.ts';
import * as partialQueueIndexes from './migrations/2026-11-24-019-partial-queue-indexes.ts';
import * as paymentScene from './migrations/2026-11-28-036-payment-scene.ts';
import * as reconciliation from './migrations/2026-11-28-038-reconciliation.ts';
import * as queueViews from './migrations/2026-11-28-040-queue-views.ts';
import * as orderNumber from './migrations/2026-11-28-041-order-number.ts';
import * as catalogueDrafts from './migrations/2026-11-28-043-catalogue-drafts.ts';
import * as interviewSlotAdmin from './migrations/2026-11-28-045-interview-slot-admin.ts';
import * as reviewModeration from './migrations/2026-11-28-046-review-moderation.ts';
import * as orderProductSnapshot from './migrations/2026-11-28-047-order-product-snapshot.ts';
import * as queueDueDescIndex from './migrations/2026-11-28-048-queue-due-desc-index.ts';
import * as teams from './migrations/2026-11-28-052-teams.ts';
import * as reportsInvoices from './migrations/2026-11-28-053-reports-invoices.ts';
import * as travellerMessages from './migrations/2026-11-28-054-traveller-messages.ts';
import * as reminders from './migrations/2026-11-28-055-reminders.ts';
import * as travellers from './migrations/2026-11-28-049-travellers.ts';
import * as photoCheck from './migrations/2026-11-28-051-photo-check.ts';
import * as applicantPassportExpiry from './migrations/2026-11-28-056-applicant-passport-expiry.ts';
import * as orderStayDays from './migrations/2026-11-29-057-order-stay-days.ts';
import * as countryVersion from './migrations/2026-11-29-058-country-version.ts';
import * as checklistVersions from './migrations/2026-11-29-059-checklist-versions.ts';

const migrations: Record<string, Migration> = {
  '2026-11-21-001-accounts': accounts,
  '2026-11-21-002-catalogue': catalogue,
  '2026-11-21-003-rate-limit': rateLimit,
  '2026-11-21-004-orders': orders,
  '2026-11-21-005-ordering': ordering,
  '2026-11-21-006-payment-sandbox': paymentSandbox,
  '2026-11-22-007-lifecycle': lifecycle,
  '2026-11-24-008-courier': courier,
  '2026-11-24-009-operators': operators,
  '2026-11-24-010-notices': notices,
  '2026-11-24-011-review': review,
  '2026-11-24-013-page-check': pageCheck,
  '2026-11-24-014-interview-notice': interviewNotice,
  '2026-11-24-015-price-difference': priceDifference,
  '2026-11-24-016-visa-results': visaResults,
  '2026-11-24-017-refunds': refunds,
  '2026-11-24-018-ship-back': shipBack,
  '2026-11-24-019-partial-queue-indexes': partialQueueIndexes,
  '2026-11-28-036-payment-scene': paymentScene,
  '2026-11-28-038-reconciliation': reconciliation,
  '2026-11-28-040-queue-views': queueViews,
  '2026-11-28-041-order-number': orderNumber,
  '2026-11-28-043-catalogue-drafts': catalogueDrafts,
  '2026-11-28-045-interview-slot-admin': interviewSlotAdmin,
  '2026-11-28-046-review-moderation': reviewModeration,
  '2026-11-28-047-order-product-snapshot': orderProductSnapshot,
  '2026-11-28-048-queue-due-desc-index': queueDueDescIndex,
  '2026-11-28-052-teams': teams,
  '2026-11-28-053-reports-invoices': reportsInvoices,
  '2026-11-28-049-travellers': travellers,
  '2026-11-28-051-photo-check': photoCheck,
  '2026-11-28-054-traveller-messages': travellerMessages,
  '2026-11-28-055-reminders': reminders,
  '2026-11-28-056-applicant-passport-expiry': applicantPassportExpiry,
  '2026-11-29-057-order-stay-days': orderStayDays,
  '2026-11-29-058-country-version': countryVersion,
  '2026-11-29-059-checklist-versions': checklistVersions,
};

/** The migrations this code knows, oldest first (a backup names the last one its database had). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * On PostgreSQL the bookkeeping tables are looked up in the handle's own
 * schema: Kysely would otherwise find another schema's copy in the same
 * database and skip creating its own.
 */
export async function migrateToLatest({ db, schema }: { db: Kysely<any>; schema?: string }): Promise<string[]> {
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations this code knows that the database has not applied: one
 * select of the bookkeeping table (readiness, server/platform/health.ts). A
 * database never migrated has no such table: the query fails.
 */
export async function missingMigrations({ db, schema }: { db: Kysely<any>; schema?: string }): Promise<string[]> {
  const table = schema ? sql.table(`${schema}.${DEFAULT_MIGRATION_TABLE}`) : sql.table(DEFAULT_MIGRATION_TABLE);
  const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
  const applied = new Set(rows.map((row) => row.name));
  return Object.keys(migrations).filter((name) => !applied.has(name));
}
