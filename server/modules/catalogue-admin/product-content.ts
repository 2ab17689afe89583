// A published product read as the editor's content (ProductContent), and
// written back from it on publishing. The product page reads the same rows
// (server/modules/catalogue); publishing bumps visa_product.updated_at in the
// same transaction, which is the guest page cache's version (decision 0004):
// every instance serves the new page from its next request.
import type { Kysely, Transaction } from 'kysely';
import type { MaterialContent, ProductContent } from '../../../common/contracts/catalogue-admin.ts';
import { DELISTED_STATUS } from '../../../common/catalogue.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { removeMaterials } from '../catalogue-io/remove-materials.ts';

const IDENTITY_IDS = [0, 1, 2, 3, 4] as const;

export async function readProductContent(db: Kysely<Database>, visaProductId: number): Promise<{ content: ProductContent; updatedAt: number } | null> {
  const product = await db
    .selectFrom('visa_product')
    .leftJoin('photo_param', 'photo_param.visa_photo_id', 'visa_product.visa_photo_id')
    .selectAll('visa_product')
    .select(['photo_param.color as photo_color', 'photo_param.width as photo_width', 'photo_param.height as photo_height'])
    .where('visa_product.visa_product_id', '=', visaProductId)
    .executeTakeFirst();
  if (!product) return null;
  const byProduct = <T extends 'visa_product_basic_info' | 'visa_product_feature' | 'visa_product_procedure' | 'visa_product_process_step'>(table: T) =>
    db
      .selectFrom(table as 'visa_product_basic_info')
      .selectAll()
      .where('visa_product_id', '=', visaProductId)
      .orderBy('sort')
      .orderBy('id')
      .execute();
  const [basicInfo, features, procedure, steps, materials] = await Promise.all([
    byProduct('visa_product_basic_info'),
    db.selectFrom('visa_product_feature').selectAll().where('visa_product_id', '=', visaProductId).orderBy('sort').orderBy('id').execute(),
    db.selectFrom('visa_product_procedure').selectAll().where('visa_product_id', '=', visaProductId).orderBy('sort').orderBy('id').execute(),
    db.selectFrom('visa_product_process_step').selectAll().where('visa_product_id', '=', visaProductId).orderBy('sort').orderBy('id').execute(),
    db
      .selectFrom('visa_product_material')
      .selectAll()
      .where('visa_product_id', '=', visaProductId)
      .where('retired', '=', 0)
      .orderBy('identity_id')
      .orderBy('sort')
      .orderBy('material_id')
      .execute(),
  ]);
  const content: ProductContent = {
    visa_country_id: product.visa_country_id,
    visa_type_id: product.visa_type_id,
    consular_district_id: product.consular_district_id,
    product_special_desc: product.product_special_desc,
    entry_times: product.entry_times as 0 | 1 | 2,
    stay_days: product.stay_days,
    valid_days: product.valid_days,
    need_days: product.need_days,
    need_days_detail: product.need_days_detail,
    pass_rate: product.pass_rate,
    sell_price: product.sell_price,
    distributor_discount:
      product.distributor_discount_desc && product.distributor_discount_price !== null
        ? { desc: product.distributor_discount_desc, price: product.distributor_discount_price }
        : null,
    basic_info: basicInfo.map(({ title, content }) => ({ title, content })),
    common_info: features.map(({ type, num, unit, title }) => ({ type: type === 1 ? 1 : 0, num, unit, title })),
    reject_refund: product.reject_refund === 1,
    procedure: procedure.map(({ icon, title }) => ({ icon: icon as ProductContent['procedure'][number]['icon'], title })),
    handle_process: steps.map(({ title, content }) => ({ title, content })),
    reminder: product.reminder,
    photo:
      product.visa_photo_id !== 0 && product.photo_color !== null
        ? { color: product.photo_color as 0 | 1 | 2 | 3, width: product.photo_width ?? 0, height: product.photo_height ?? 0 }
        : null,
    offline: product.offline === 1,
    listed: product.status !== DELISTED_STATUS,
    need_interview: product.need_interview === 1,
    checklists: IDENTITY_IDS.map((identityId) => {
      const own = materials.filter((m) => m.identity_id === identityId);
      return {
        identity_id: identityId,
        offered: own.length > 0,
        materials: own.map((m) => ({ required: m.required === 1, attr: m.attr as 0 | 1 | 2, name: m.name, attention: m.attention, sample: m.sample })),
      };
    }),
  };
  return { content, updatedAt: product.updated_at };
}

/** The photo rule's row: an existing one of the same colour and size, or a new one (rows are never changed: orders point at them). */
async function photoId(trx: Transaction<Database>, photo: ProductContent['photo']): Promise<number> {
  if (!photo) return 0;
  const found = await trx
    .selectFrom('photo_param')
    .select('visa_photo_id')
    .where('color', '=', photo.color)
    .where('width', '=', photo.width)
    .where('height', '=', photo.height)
    .orderBy('visa_photo_id')
    .executeTakeFirst();
  if (found) return found.visa_photo_id;
  const inserted = await trx
    .insertInto('photo_param')
    .values({ color: photo.color, width: photo.width, height: photo.height, name: `${photo.width}×${photo.height}mm` })
    .returning('visa_photo_id')
    .executeTakeFirstOrThrow();
  return inserted.visa_photo_id;
}

const materialKey = (m: { identity_id: number; required: number | boolean; attr: number; name: string }) =>
  `${m.identity_id}:${m.required === true || m.required === 1 ? 1 : 0}:${m.attr}:${m.name}`;

/**
 * Writes the content as the product's published state; returns its id. A
 * material that stays (same identity, required, attr and name) keeps its row
 * and id — the files orders uploaded for it stay attached; one that goes is
 * deleted, unless an order has uploaded a file for it (2329).
 */
export async function writeProductContent(
  trx: Transaction<Database>,
  visaProductId: number | null,
  content: ProductContent,
  updatedAt: number,
): Promise<number> {
  const row = {
    visa_country_id: content.visa_country_id,
    visa_type_id: content.visa_type_id,
    consular_district_id: content.consular_district_id,
    product_special_desc: content.product_special_desc,
    entry_times: content.entry_times,
    stay_days: content.stay_days,
    valid_days: content.valid_days,
    need_days: content.need_days,
    need_days_detail: content.need_days_detail,
    pass_rate: content.pass_rate,
    sell_price: content.sell_price,
    distributor_discount_desc: content.distributor_discount?.desc ?? null,
    distributor_discount_price: content.distributor_discount?.price ?? null,
    status: content.listed ? 0 : DELISTED_STATUS,
    offline: content.offline ? 1 : 0,
    reject_refund: content.reject_refund ? 1 : 0,
    need_interview: content.need_interview ? 1 : 0,
    visa_photo_id: await photoId(trx, content.photo),
    reminder: content.reminder,
    updated_at: updatedAt,
  };
  let id: number;
  if (visaProductId === null) {
    id = (
      await trx
        .insertInto('visa_product')
        .values({ ...row, channel: 0 })
        .returning('visa_product_id')
        .executeTakeFirstOrThrow()
    ).visa_product_id;
  } else {
    id = visaProductId;
    await trx.updateTable('visa_product').set(row).where('visa_product_id', '=', id).execute();
  }

  // The ordered lists are rewritten whole: nothing else points at their rows.
  await trx.deleteFrom('visa_product_basic_info').where('visa_product_id', '=', id).execute();
  await trx.deleteFrom('visa_product_feature').where('visa_product_id', '=', id).execute();
  await trx.deleteFrom('visa_product_procedure').where('visa_product_id', '=', id).execute();
  await trx.deleteFrom('visa_product_process_step').where('visa_product_id', '=', id).execute();
  const sorted = <T>(items: T[]) => items.map((item, sort) => ({ ...item, visa_product_id: id, sort }));
  if (content.basic_info.length > 0) await trx.insertInto('visa_product_basic_info').values(sorted(content.basic_info)).execute();
  if (content.common_info.length > 0) await trx.insertInto('visa_product_feature').values(sorted(content.common_info)).execute();
  if (content.procedure.length > 0) await trx.insertInto('visa_product_procedure').values(sorted(content.procedure)).execute();
  if (content.handle_process.length > 0) await trx.insertInto('visa_product_process_step').values(sorted(content.handle_process)).execute();

  await writeMaterials(trx, id, content);
  return id;
}

async function writeMaterials(trx: Transaction<Database>, id: number, content: ProductContent): Promise<void> {
  const existing = await trx
    .selectFrom('visa_product_material')
    .select(['material_id', 'identity_id', 'required', 'attr', 'name'])
    .where('visa_product_id', '=', id)
    .where('retired', '=', 0)
    .execute();
  const byKey = new Map(existing.map((m) => [materialKey(m), m.material_id]));
  const kept = new Set<number>();
  for (const checklist of content.checklists) {
    for (const [sort, material] of checklist.materials.entries()) {
      const key = materialKey({ identity_id: checklist.identity_id, ...material });
      const values = materialRow(id, checklist.identity_id, material, sort);
      const materialId = byKey.get(key);
      if (materialId !== undefined) {
        kept.add(materialId);
        await trx
          .updateTable('visa_product_material')
          .set({ attention: values.attention, sample: values.sample, sort })
          .where('material_id', '=', materialId)
          .execute();
      } else {
        await trx.insertInto('visa_product_material').values(values).execute();
      }
    }
  }
  const gone = existing.filter((m) => !kept.has(m.material_id));
  if (gone.length === 0) return;
  const used = await trx
    .selectFrom('order_material_file')
    .select('material_id')
    .where(
      'material_id',
      'in',
      gone.map((m) => m.material_id),
    )
    .executeTakeFirst();
  if (used) {
    const name = gone.find((m) => m.material_id === used.material_id)?.name ?? '';
    throw new AppError(ErrorCode.CATALOGUE_MATERIAL_IN_USE, `资料「${name}」已有订单上传了文件，不能删除（可修改注意事项和样例）`);
  }
  await removeMaterials(
    trx,
    gone.map((m) => m.material_id),
  );
}

function materialRow(visaProductId: number, identityId: number, material: MaterialContent, sort: number) {
  return {
    visa_product_id: visaProductId,
    identity_id: identityId,
    required: material.required ? 1 : 0,
    attr: material.attr,
    name: material.name,
    attention: material.attention,
    sample: material.sample,
    sort,
  };
}
