// Insurance plans: the ones on sale (status 0), in their display order.
import type { Kysely, Selectable } from 'kysely';
import type { InsuranceItem } from '../../../common/contracts/order.ts';
import { fromJson } from '../../db/json.ts';
import type { Database, InsurancePlanTable } from '../../db/schema.ts';

export type InsurancePlanRow = Omit<Selectable<InsurancePlanTable>, 'items'> & { items: InsuranceItem[] };

function parsed(row: Selectable<InsurancePlanTable>): InsurancePlanRow {
  return { ...row, items: fromJson(row.items) };
}

export function createInsuranceRepository(db: Kysely<Database>) {
  return {
    async onSale(): Promise<InsurancePlanRow[]> {
      const rows = await db.selectFrom('insurance_plan').selectAll().where('status', '=', 0).orderBy('sort').orderBy('insurance_plan_id').execute();
      return rows.map(parsed);
    },

    /** A plan that can be bought now; undefined when missing or withdrawn. */
    async findOnSale(insurancePlanId: number): Promise<InsurancePlanRow | undefined> {
      const row = await db.selectFrom('insurance_plan').selectAll().where('insurance_plan_id', '=', insurancePlanId).where('status', '=', 0).executeTakeFirst();
      return row ? parsed(row) : undefined;
    },
  };
}

export type InsuranceRepository = ReturnType<typeof createInsuranceRepository>;
