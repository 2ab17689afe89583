// Uploaded materials as the API and the upload page see them: what a file
// may be, the per-applicant checklist with its files, and the photo spec.
// The rules are in docs/order-rules.md ("Uploaded materials").
import { PHOTO_COLORS } from './constants.ts';

export const MATERIAL_LIMITS = {
  /** Files one applicant may keep for one electronic material. */
  maxFilesPerMaterial: 10,
  /** The client's file name is kept (shown, offered on download) up to this many characters. */
  fileNameMaxLength: 100,
} as const;

/** Types are detected from the first bytes of the file, never from its name or the browser's guess. */
export const MATERIAL_CONTENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type MaterialContentType = (typeof MATERIAL_CONTENT_TYPES)[number];
/** The visa photo must be an image. */
export const PHOTO_CONTENT_TYPES: readonly MaterialContentType[] = ['image/jpeg', 'image/png'];

export const MATERIAL_REVIEW_STATUSES = { pending: '待审核', passed: '已通过', no_pass: '未通过' } as const;
export type MaterialReviewStatus = keyof typeof MATERIAL_REVIEW_STATUSES;

/** Whether the customer may change materials now: draft (all), re-upload (no-pass ones only), or not at all. */
export type MaterialEditMode = 'draft' | 'reupload' | 'closed';

export interface MaterialFileView {
  file_id: number;
  kind: 'material' | 'photo';
  /** null for the visa photo. */
  material_id: number | null;
  file_name: string;
  content_type: MaterialContentType;
  size: number;
  /** GET, authenticated by the login cookie; changes when the file is replaced. */
  url: string;
  review_status: MaterialReviewStatus;
  review_status_label: string;
  no_pass_memo: string | null;
  created_at: number;
}

export interface ChecklistItem {
  material_id: number;
  name: string;
  attention: string;
  /** Sample image path, or null. */
  sample: string | null;
  required: boolean;
}

export interface ElectronicItem extends ChecklistItem {
  files: MaterialFileView[];
  /** The customer may add, replace or delete files of this item now. */
  editable: boolean;
}

export interface PhotoSpec {
  visa_photo_id: number;
  name: string;
  /** millimetres */
  width: number;
  height: number;
  color: number;
  color_name: string;
}

export interface ApplicantMaterials {
  applicant_id: number;
  name: string;
  identity_id: number;
  identity_label: string;
  /** attr 0: uploaded here. */
  electronic: ElectronicItem[];
  /** attr 1: paper mailed to the agency later. */
  mailed: ChecklistItem[];
  /** attr 2: brought to the embassy by the applicant. */
  bring: ChecklistItem[];
  /** null when the product asks for no photo. */
  photo: { required: true; editable: boolean; files: MaterialFileView[] } | null;
}

export interface MissingMaterialView {
  applicant_id: number;
  applicant_name: string;
  /** null = the visa photo. */
  material_id: number | null;
  name: string;
}

export interface MaterialListResult {
  user_order_id: number;
  status: string;
  status_label: string;
  step: string | null;
  mode: MaterialEditMode;
  need_interview: boolean;
  order_date: string;
  departure_date: string;
  /** null = the visa takes effect from the departure date. */
  effect_date: string | null;
  photo_spec: PhotoSpec | null;
  max_file_bytes: number;
  max_files_per_material: number;
  applicants: ApplicantMaterials[];
  /** Required electronic materials and photos still missing; empty when the step is complete. */
  missing: MissingMaterialView[];
}

export interface MaterialUploadResult {
  file: MaterialFileView;
  /** The file this upload replaced (same file_id, new content), or null for a new file. */
  replaced: boolean;
  missing: MissingMaterialView[];
}

export interface MaterialDeleteResult {
  file_id: number;
  missing: MissingMaterialView[];
}

export interface EffectDateResult {
  effect_date: string | null;
}

export function photoColorName(color: number): string {
  return PHOTO_COLORS[color as keyof typeof PHOTO_COLORS] ?? '';
}

/** "10 MB", "512 KB": the size limit as the messages and the page show it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}
