import { describe, expect, it } from 'vitest';
import type { MaterialFileView, MaterialListResult } from '../../../common/contracts/material';
import { effectDateAllowed, nextPath, precheck, requiredProgress, targetKey, uploadForm, withDeleted, withUploaded } from './upload-model';

const file = (file_id: number, extra: Partial<MaterialFileView> = {}): MaterialFileView => ({
  file_id,
  kind: 'material',
  material_id: 7,
  file_name: `f${file_id}.jpg`,
  content_type: 'image/jpeg',
  size: 100,
  url: `/files/material/${file_id}?v=x`,
  review_status: 'pending',
  review_status_label: '待审核',
  no_pass_memo: null,
  reused_from_traveller: false,
  created_at: 0,
  ...extra,
});

const list: MaterialListResult = {
  user_order_id: 1,
  status: 'draft',
  status_label: '草稿',
  step: null,
  mode: 'draft',
  allowed_events: ['material_upload', 'material_replace', 'material_delete', 'effect_date', 'confirm', 'cancel'],
  need_interview: false,
  order_date: '2026-12-01',
  departure_date: '2026-12-28',
  effect_date: null,
  photo_spec: { visa_photo_id: 1, name: '白底', width: 35, height: 45, color: 1, color_name: '白色' },
  max_file_bytes: 10 * 1024 * 1024,
  max_files_per_material: 10,
  applicants: [
    {
      applicant_id: 5,
      name: '甲',
      identity_id: 0,
      identity_label: '在职人员',
      electronic: [
        { material_id: 7, name: '护照', attention: '', sample: null, required: true, files: [], editable: true },
        { material_id: 8, name: '行程单', attention: '', sample: null, required: false, files: [], editable: true },
      ],
      mailed: [],
      bring: [],
      photo: { required: true, editable: true, files: [], check: null },
    },
  ],
  missing: [
    { applicant_id: 5, applicant_name: '甲', material_id: 7, name: '护照' },
    { applicant_id: 5, applicant_name: '甲', material_id: null, name: '签证照片' },
  ],
};

describe('upload page model', () => {
  it('builds the form with the fields before the file', () => {
    const form = uploadForm(1, { applicantId: 5, materialId: null }, new File(['x'], 'me.jpg'), 9);
    expect([...form.keys()]).toEqual(['user_order_id', 'applicant_id', 'kind', 'replace_file_id', 'file']);
    expect(form.get('kind')).toBe('photo');
    expect([...uploadForm(1, { applicantId: 5, materialId: 7 }, new File(['x'], 'a.pdf')).keys()]).toEqual([
      'user_order_id',
      'applicant_id',
      'material_id',
      'file',
    ]);
    expect(targetKey({ applicantId: 5, materialId: null })).toBe('5:photo');
  });

  it('refuses empty and oversize files with the server’s words', () => {
    expect(precheck({ size: 0 }, 100)).toBe('文件为空，请重新选择');
    expect(precheck({ size: 11 * 1024 * 1024 }, 10 * 1024 * 1024)).toBe('文件过大，单个文件不能超过 10 MB');
    expect(precheck({ size: 10 * 1024 * 1024 }, 10 * 1024 * 1024)).toBeNull();
  });

  it('adds, replaces in place and removes files, taking the server’s missing list', () => {
    const added = withUploaded(list, { applicantId: 5, materialId: 7 }, file(1), [list.missing[1]!]);
    expect(added.applicants[0]!.electronic[0]!.files.map((f) => f.file_id)).toEqual([1]);
    expect(requiredProgress(added, 5)).toEqual({ done: 1, total: 2 });
    const two = withUploaded(added, { applicantId: 5, materialId: 7 }, file(2), added.missing);
    const replaced = withUploaded(two, { applicantId: 5, materialId: 7 }, file(1, { file_name: 'new.png', content_type: 'image/png' }), two.missing);
    expect(replaced.applicants[0]!.electronic[0]!.files.map((f) => f.file_name)).toEqual(['new.png', 'f2.jpg']);
    const photo = withUploaded(replaced, { applicantId: 5, materialId: null }, file(3, { kind: 'photo', material_id: null }), []);
    expect(photo.applicants[0]!.photo!.files).toHaveLength(1);
    expect(requiredProgress(photo, 5)).toEqual({ done: 2, total: 2 });
    const removed = withDeleted(photo, 3, [list.missing[1]!]);
    expect(removed.applicants[0]!.photo!.files).toEqual([]);
    expect(removed.missing).toHaveLength(1);
  });

  it('leads on to the interview or the confirm step, and bounds the effect date', () => {
    expect(nextPath(4, true)).toBe('/ordering/choose-interview-time/4');
    expect(nextPath(4, false)).toBe('/ordering/order-confirm/4');
    expect(effectDateAllowed('2026-12-01', list)).toBe(true);
    expect(effectDateAllowed('2026-12-28', list)).toBe(true);
    expect(effectDateAllowed('2026-11-30', list)).toBe(false);
    expect(effectDateAllowed('2026-12-29', list)).toBe(false);
  });
});
