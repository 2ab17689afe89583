// Which electronic materials an order still lacks: the upload step is done
// when every applicant has at least one file for each required electronic
// material (attr 0) of their identity, and a visa photo when the product asks
// for one (visa_photo_id ≠ 0) — the order's own checklist and photo rule (issue 26). Used by the upload page, the order's "continue"
// and the confirm step's guard.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface MissingMaterial {
  applicant_id: number;
  applicant_name: string;
  /** null = the visa photo. */
  material_id: number | null;
  name: string;
}

type Db = Kysely<Database> | Transaction<Database>;

export async function missingMaterials(db: Db, userOrderId: number): Promise<MissingMaterial[]> {
  const order = await db
    .selectFrom('user_order')
    .select(['user_order.user_order_id', 'user_order.visa_photo_id'])
    .where('user_order.user_order_id', '=', userOrderId)
    .executeTakeFirst();
  if (!order) return [];
  const [applicants, materials, files] = await Promise.all([
    db.selectFrom('order_applicant').select(['applicant_id', 'name', 'identity_id']).where('user_order_id', '=', userOrderId).orderBy('sort').execute(),
    db
      .selectFrom('order_checklist_item')
      .select(['material_id', 'identity_id', 'name'])
      .where('user_order_id', '=', userOrderId)
      .where('attr', '=', 0)
      .where('required', '=', 1)
      .orderBy('sort')
      .execute(),
    db.selectFrom('order_material_file').select(['applicant_id', 'material_id', 'kind']).where('user_order_id', '=', userOrderId).execute(),
  ]);
  const have = new Set(files.map((file) => `${file.applicant_id}:${file.kind === 'photo' ? 'photo' : file.material_id}`));
  const missing: MissingMaterial[] = [];
  for (const applicant of applicants) {
    for (const material of materials.filter((m) => m.identity_id === applicant.identity_id)) {
      if (!have.has(`${applicant.applicant_id}:${material.material_id}`)) {
        missing.push({ applicant_id: applicant.applicant_id, applicant_name: applicant.name, material_id: material.material_id, name: material.name });
      }
    }
    if (order.visa_photo_id !== 0 && !have.has(`${applicant.applicant_id}:photo`)) {
      missing.push({ applicant_id: applicant.applicant_id, applicant_name: applicant.name, material_id: null, name: '签证照片' });
    }
  }
  return missing;
}
