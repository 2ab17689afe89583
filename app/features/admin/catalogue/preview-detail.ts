// The guest product page's data (VisaProductDetail) made from the editor's
// content, so the preview renders the real page components with what has
// not been published yet. Materials get stand-in ids (negative: no real row).
import { DELISTED_STATUS, ENTRY_LABELS } from '../../../../common/catalogue';
import type { VisaProductDetail } from '../../../../common/contracts/catalogue';
import type { CatalogueReference, MaterialContent, ProductContent } from '../../../../common/contracts/catalogue-admin';

function materialOf(material: MaterialContent, id: number): VisaProductDetail['identity_material'][number]['material_required'][number] {
  const nameField = material.attr === 0 ? 'elec_name' : material.attr === 1 ? 'paper_name' : 'take_along_name';
  return { material_id: id, attr: material.attr, [nameField]: material.name, attention: material.attention, sample: material.sample || null };
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export function previewDetail(
  content: ProductContent,
  reference: CatalogueReference,
  options: { visa_product_id: number | null; sum_score: number; reviews: number },
): VisaProductDetail {
  const country = reference.countries.find((c) => c.visa_country_id === content.visa_country_id);
  const visaType = reference.visa_types.find((v) => v.visa_type_id === content.visa_type_id);
  const district = reference.districts.find((d) => d.consular_district_id === content.consular_district_id);
  let nextId = -1;
  return {
    visa_product_id: options.visa_product_id ?? 0,
    status: content.listed ? 0 : DELISTED_STATUS,
    channel: 0,
    offline: content.offline,
    visa_country_id: content.visa_country_id,
    country: country?.name ?? '',
    country_iso_code: country?.iso_code ?? '',
    visa_type: visaType?.name ?? '',
    visa_type_id: content.visa_type_id,
    entry_times: content.entry_times,
    entry_label: ENTRY_LABELS[content.entry_times] ?? '',
    product_special_desc: content.product_special_desc ?? '',
    need_days_detail: content.need_days_detail ?? '',
    continent_id: country?.continent_id ?? 0,
    consular_district: district ? { consular_district_id: district.consular_district_id, name: district.name } : null,
    pass_rate: num(content.pass_rate),
    sum_score: options.sum_score,
    reviews: options.reviews,
    sell_price: num(content.sell_price),
    distributor_discount: content.distributor_discount
      ? { desc: content.distributor_discount.desc ?? '', price: num(content.distributor_discount.price) }
      : null,
    basic_info: (content.basic_info ?? []).filter(Boolean),
    common_info: (content.common_info ?? []).filter(Boolean).map((item) => ({ ...item, num: num(item.num) })),
    reject_refund_set: { status: content.reject_refund ? 1 : 0 },
    procedure: (content.procedure ?? []).filter(Boolean),
    handle_process: (content.handle_process ?? []).filter(Boolean),
    reminder: content.reminder ?? '',
    visa_photo_id: content.photo ? 1 : 0,
    photo_param: content.photo ? { color: content.photo.color, width: num(content.photo.width), height: num(content.photo.height) } : null,
    identity_material: (content.checklists ?? []).map((checklist) => {
      const materials = checklist.offered ? (checklist.materials ?? []).filter(Boolean) : [];
      return {
        identity_id: checklist.identity_id,
        material_required: materials.filter((m) => m.required).map((m) => materialOf(m, nextId--)),
        material_optional: materials.filter((m) => !m.required).map((m) => materialOf(m, nextId--)),
      };
    }),
    need_interview: content.need_interview,
    stay_days: content.stay_days ?? 0,
    tags: [],
    updated_at: 0,
  };
}
