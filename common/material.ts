// Uploaded materials as both sides see them: what a file may be, review
// statuses, edit modes. The calls' shapes are common/contracts/material.ts;
// the rules are in docs/order-rules.md ("Uploaded materials").
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
export const MATERIAL_REVIEW_STATUS_VALUES = Object.keys(MATERIAL_REVIEW_STATUSES) as [MaterialReviewStatus, ...MaterialReviewStatus[]];

/** Whether the customer may change materials now: draft (all), re-upload (no-pass ones only), or not at all. */
export const MATERIAL_EDIT_MODES = ['draft', 'reupload', 'closed'] as const;
export type MaterialEditMode = (typeof MATERIAL_EDIT_MODES)[number];

export function photoColorName(color: number): string {
  return PHOTO_COLORS[color as keyof typeof PHOTO_COLORS] ?? '';
}

/** "10 MB", "512 KB": the size limit as the messages and the page show it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}
