// Taking materials off a product, the one rule of the back office's publish
// (catalogue-admin) and the workbook import.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Takes materials off their product. One that an order's checklist still
 * lists (issue 26: orders keep the checklist they were placed with) is
 * retired, not deleted: the order may still upload a file for it, and its
 * files point at the row. An order's checklist is its versions
 * (migration 059; a version is stored only with the order that first gets
 * it, so every version's material is some order's) or its copied rows
 * (order_checklist_copy: orders placed before it, or by the previous release
 * during a rolling upgrade).
 */
export async function removeMaterials(trx: Transaction<Database>, materialIds: number[]): Promise<void> {
  if (materialIds.length === 0) return;
  const listed = await trx
    .selectFrom('checklist_version_item')
    .select('material_id')
    .where('material_id', 'in', materialIds)
    .union(trx.selectFrom('order_checklist_copy').select('material_id').where('material_id', 'in', materialIds))
    .execute();
  const retired = listed.map((row) => row.material_id);
  if (retired.length > 0) await trx.updateTable('visa_product_material').set({ retired: 1 }).where('material_id', 'in', retired).execute();
  const deleted = materialIds.filter((id) => !retired.includes(id));
  if (deleted.length > 0) await trx.deleteFrom('visa_product_material').where('material_id', 'in', deleted).execute();
}
