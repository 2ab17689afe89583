// What the re-upload page shows, without React: per applicant, the items that
// held a no-pass file when the page was loaded (their files as they are now),
// and how many no-pass files are still left.
import type { ApplicantMaterials, ElectronicItem, MaterialListResult } from '../../../common/contracts/material';

export interface ReuploadApplicant {
  applicant: ApplicantMaterials;
  photo: ApplicantMaterials['photo'];
  electronic: ElectronicItem[];
  noPassLeft: number;
}

export function reuploadItems(loaded: MaterialListResult, current: MaterialListResult): ReuploadApplicant[] {
  const result: ReuploadApplicant[] = [];
  for (const applicant of current.applicants) {
    const before = loaded.applicants.find((a) => a.applicant_id === applicant.applicant_id);
    if (!before) continue;
    const wanted = new Set(before.electronic.filter((item) => item.editable).map((item) => item.material_id));
    const electronic = applicant.electronic.filter((item) => wanted.has(item.material_id));
    const photo = before.photo?.editable ? applicant.photo : null;
    if (electronic.length === 0 && !photo) continue;
    const files = [...electronic.flatMap((item) => item.files), ...(photo?.files ?? [])];
    result.push({ applicant, photo, electronic, noPassLeft: files.filter((file) => file.review_status === 'no_pass').length });
  }
  return result;
}
