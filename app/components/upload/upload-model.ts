// What the upload page computes without React: where an upload goes, how the
// checklist changes after an upload or a delete, what the browser can refuse
// before sending, and where '下一步' leads.
import type { MaterialFileView, MaterialListResult } from '../../../common/contracts/material';
import type { MissingMaterialView } from '../../../common/contracts/order';
import type { PhotoCheckView } from '../../../common/photo-check';
import { formatBytes } from '../../../common/material';
import { orderingPath } from '../../../common/ordering';

/** One upload target: an applicant's electronic item, or their photo (materialId null). */
export interface UploadTarget {
  applicantId: number;
  materialId: number | null;
}

export function targetKey({ applicantId, materialId }: UploadTarget): string {
  return `${applicantId}:${materialId ?? 'photo'}`;
}

/** The form the upload call takes: fields first, the file last (the server reads them in that order). */
export function uploadForm(userOrderId: number, target: UploadTarget, file: Blob & { name?: string }, replaceFileId?: number | null): FormData {
  const form = new FormData();
  form.append('user_order_id', String(userOrderId));
  form.append('applicant_id', String(target.applicantId));
  if (target.materialId === null) form.append('kind', 'photo');
  else form.append('material_id', String(target.materialId));
  if (replaceFileId) form.append('replace_file_id', String(replaceFileId));
  form.append('file', file, file.name ?? 'file');
  return form;
}

/**
 * What the browser can refuse without sending: the same words as the server's
 * 1822 and 1823. The type is left to the server, which reads the content.
 */
export function precheck(file: { size: number }, maxBytes: number): string | null {
  if (file.size === 0) return '文件为空，请重新选择';
  if (file.size > maxBytes) return `文件过大，单个文件不能超过 ${formatBytes(maxBytes)}`;
  return null;
}

function mapFiles(list: MaterialListResult, target: UploadTarget, change: (files: MaterialFileView[]) => MaterialFileView[]): MaterialListResult {
  return {
    ...list,
    applicants: list.applicants.map((applicant) => {
      if (applicant.applicant_id !== target.applicantId) return applicant;
      if (target.materialId === null)
        return applicant.photo ? { ...applicant, photo: { ...applicant.photo, files: change(applicant.photo.files) } } : applicant;
      return {
        ...applicant,
        electronic: applicant.electronic.map((item) => (item.material_id === target.materialId ? { ...item, files: change(item.files) } : item)),
      };
    }),
  };
}

/** The checklist after a successful upload: a replaced file keeps its place. */
export function withUploaded(
  list: MaterialListResult,
  target: UploadTarget,
  file: MaterialFileView,
  missing: MissingMaterialView[],
  photoCheck: PhotoCheckView | null = null,
): MaterialListResult {
  const next = mapFiles(list, target, (files) =>
    files.some((f) => f.file_id === file.file_id) ? files.map((f) => (f.file_id === file.file_id ? file : f)) : [...files, file],
  );
  if (target.materialId === null) {
    // A photo's check comes with its upload (issue 28).
    next.applicants = next.applicants.map((a) => (a.applicant_id === target.applicantId && a.photo ? { ...a, photo: { ...a.photo, check: photoCheck } } : a));
  }
  return { ...next, missing };
}

export function withDeleted(list: MaterialListResult, fileId: number, missing: MissingMaterialView[]): MaterialListResult {
  return {
    ...list,
    missing,
    applicants: list.applicants.map((applicant) => ({
      ...applicant,
      photo: applicant.photo
        ? {
            ...applicant.photo,
            files: applicant.photo.files.filter((f) => f.file_id !== fileId),
            check: applicant.photo.check?.file_id === fileId ? null : applicant.photo.check,
          }
        : null,
      electronic: applicant.electronic.map((item) => ({ ...item, files: item.files.filter((f) => f.file_id !== fileId) })),
    })),
  };
}

export function missingOf(list: MaterialListResult, applicantId: number): MissingMaterialView[] {
  return list.missing.filter((m) => m.applicant_id === applicantId);
}

/** Required items (and the photo) of an applicant, and how many have a file. */
export function requiredProgress(list: MaterialListResult, applicantId: number): { done: number; total: number } {
  const applicant = list.applicants.find((a) => a.applicant_id === applicantId);
  if (!applicant) return { done: 0, total: 0 };
  const total = applicant.electronic.filter((item) => item.required).length + (applicant.photo ? 1 : 0);
  return { done: total - missingOf(list, applicantId).length, total };
}

export const isImage = (file: { content_type: string }) => file.content_type === 'image/jpeg' || file.content_type === 'image/png';

/** '下一步': the interview step when the product has one, else the confirm step. */
export function nextPath(userOrderId: number, needInterview: boolean): string {
  return orderingPath(userOrderId, needInterview ? 'interview' : 'confirm');
}

/** The effect date's choices: the order date to the departure date (inclusive). */
export function effectDateAllowed(date: string, list: Pick<MaterialListResult, 'order_date' | 'departure_date'>): boolean {
  return date >= list.order_date && date <= list.departure_date;
}

/** How the page describes a file's size. */
export const sizeText = formatBytes;
