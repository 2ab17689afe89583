// Pure helpers of the product detail page (spec 2.2): material names and
// groups, the reviewer's shown name, section anchors.
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import type { IdentityMaterial, Material, Review } from '../../../../common/contracts/catalogue';
import { MATERIAL_ATTRS } from '../../../../common/constants';

/** The in-page sections of the sticky tab bar, in page order. */
export const SECTION_IDS = {
  basic: 'product-basic-info',
  materials: 'product-materials',
  process: 'product-process',
  reviews: 'product-reviews',
} as const;

export type SectionKey = keyof typeof SECTION_IDS;

/** The name field that matches attr (spec §3), falling back to whichever is present. */
export function materialName(material: Material): string {
  const byAttr = material.attr === 0 ? material.elec_name : material.attr === 1 ? material.paper_name : material.take_along_name;
  return (byAttr ?? material.elec_name ?? material.paper_name ?? material.take_along_name ?? '').trim();
}

export interface MaterialItem {
  material: Material;
  name: string;
  required: boolean;
}

export interface MaterialGroup {
  attr: number;
  label: string;
  items: MaterialItem[];
}

/** One identity's materials as 电子资料 / 邮寄资料 / 赴馆资料, required ones first; empty groups left out. */
export function groupMaterials(identity: IdentityMaterial | undefined): MaterialGroup[] {
  const items: MaterialItem[] = [
    ...(identity?.material_required ?? []).map((material) => ({ material, name: materialName(material), required: true })),
    ...(identity?.material_optional ?? []).map((material) => ({ material, name: materialName(material), required: false })),
  ];
  return Object.entries(MATERIAL_ATTRS)
    .map(([attr, label]) => ({ attr: Number(attr), label, items: items.filter((item) => item.material.attr === Number(attr)) }))
    .filter((group) => group.items.length > 0);
}

/** Spec 2.2: nickname, else the (already masked) mobile phone, else '匿名评价'. */
export function reviewerName(review: Pick<Review, 'nickname' | 'mobile_phone'>): string {
  return review.nickname?.trim() || review.mobile_phone?.trim() || '匿名评价';
}

dayjs.extend(utc);

/** China Standard Time (UTC+8, no daylight saving), in minutes. */
const CHINA_UTC_OFFSET_MIN = 8 * 60;

/**
 * A review's create_time (ms) as 'YYYY-MM-DD' in China time, so the server's
 * render and the browser's agree whatever their time zones.
 */
export function formatReviewDate(createTime: number): string {
  return dayjs.utc(createTime).utcOffset(CHINA_UTC_OFFSET_MIN).format('YYYY-MM-DD');
}

/** Steps are numbered 01, 02, … */
export function stepNumber(index: number): string {
  return String(index + 1).padStart(2, '0');
}
