// One electronic item of an applicant's checklist: name (required ones
// starred), what to pay attention to, the sample, the files, and the upload
// button (several files at once; JPG, PNG or PDF).
import { CheckCircleFilled, CloseCircleFilled, UploadOutlined } from '@ant-design/icons';
import { Button, Upload } from 'antd';
import type { ReactNode } from 'react';
import type { MaterialFileView } from '../../../common/contracts/material';
import { ImageThumb } from '../image-viewer';
import { FileTile } from './file-tile';
import { InFlightList } from './in-flight-list';
import { isImage } from './upload-model';
import type { InFlight } from './use-uploads';

export const MATERIAL_ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';

export interface UploadSlotProps {
  files: MaterialFileView[];
  editable: boolean;
  inFlight: InFlight[];
  maxFiles: number;
  accept: string;
  /** Several files may be chosen at once (not for the photo). */
  multiple: boolean;
  buttonText: string;
  onUpload: (file: File, replaceFileId: number | null) => void;
  onDelete: (fileId: number) => Promise<void>;
  onDismiss: (uid: string) => void;
  /** Re-upload: a file that passed review stays as it is (only no-pass and new files change). */
  keepPassed?: boolean;
}

/** Files, uploads in flight and the upload button: shared by materials and the photo. */
export function UploadSlot({ files, editable, inFlight, maxFiles, accept, multiple, buttonText, onUpload, onDelete, onDismiss, keepPassed }: UploadSlotProps) {
  const gallery = files.filter(isImage).map((file) => ({ src: file.url, title: file.file_name }));
  const full = multiple && files.length >= maxFiles;
  return (
    <div className="up-slot">
      {files.length > 0 ? (
        <ul className="up-files">
          {files.map((file) => (
            <FileTile
              key={file.file_id}
              file={file}
              gallery={gallery}
              editable={editable && !(keepPassed && file.review_status === 'passed')}
              accept={accept}
              onReplace={(chosen) => onUpload(chosen, file.file_id)}
              onDelete={() => onDelete(file.file_id)}
            />
          ))}
        </ul>
      ) : null}
      <InFlightList items={inFlight} onDismiss={onDismiss} />
      {editable && (multiple || files.length === 0) ? (
        <div className="up-slot-actions">
          <Upload
            accept={accept}
            multiple={multiple}
            showUploadList={false}
            disabled={full}
            customRequest={({ file, onSuccess }) => {
              onUpload(file as File, null);
              onSuccess?.(null);
            }}
          >
            <Button icon={<UploadOutlined />} disabled={full} data-testid="upload-button">
              {buttonText}
            </Button>
          </Upload>
          <span className="up-muted up-slot-hint">
            {full ? `已达 ${maxFiles} 个文件上限` : multiple ? `JPG、PNG 或 PDF，单个不超过 10 MB，最多 ${maxFiles} 个` : 'JPG 或 PNG，不超过 10 MB'}
          </span>
        </div>
      ) : null}
    </div>
  );
}

export interface MaterialItemProps extends Omit<UploadSlotProps, 'accept' | 'multiple' | 'buttonText'> {
  name: string;
  required: boolean;
  attention: string;
  sample: string | null;
  extra?: ReactNode;
}

/** A failed item reads 未通过 · 请替换, not 已上传 (issue 27). */
export function hasNoPass(files: readonly MaterialFileView[]): boolean {
  return files.some((file) => file.review_status === 'no_pass');
}

export function ItemFailed() {
  return (
    <span className="up-item-failed" data-testid="upload-item-failed">
      <CloseCircleFilled /> 未通过 · 请替换
    </span>
  );
}

/**
 * The reviewer's memos of an item, full width under its name: the server keeps
 * a memo on a replaced file until the operator reviews it again, so the reason
 * stays readable after the replacement.
 */
export function ReviewMemos({ files }: { files: readonly MaterialFileView[] }) {
  const memos = files.filter((file) => file.no_pass_memo && file.review_status !== 'passed');
  if (memos.length === 0) return null;
  return (
    <div className="up-item-review" data-testid="upload-item-review">
      {memos.map((file) => (
        <p key={file.file_id}>
          <strong>审核意见{memos.length > 1 ? `（${file.file_name}）` : ''}：</strong>
          {file.no_pass_memo}
          {file.review_status === 'pending' ? <span className="up-item-review-state">已替换，待重新审核</span> : null}
        </p>
      ))}
    </div>
  );
}

export function MaterialItem({ name, required, attention, sample, ...slot }: MaterialItemProps) {
  const done = slot.files.length > 0;
  return (
    <li className="up-item" data-testid="upload-item" data-name={name}>
      <div className="up-item-info">
        <div className="up-item-head">
          <span className="up-item-name">
            {required ? (
              <span className="up-required" aria-label="必备">
                *
              </span>
            ) : null}
            {name}
          </span>
          {hasNoPass(slot.files) ? (
            <ItemFailed />
          ) : done ? (
            <span className="up-item-done">
              <CheckCircleFilled /> 已上传 {slot.files.length} 个
            </span>
          ) : required ? (
            <span className="up-item-todo">待上传</span>
          ) : (
            <span className="up-muted">选填</span>
          )}
        </div>
        {attention.trim() ? <div className="up-item-attention">{attention.trim()}</div> : null}
        <ReviewMemos files={slot.files} />
      </div>
      {sample ? (
        <div className="up-item-sample">
          <ImageThumb src={sample} title={`${name} 样例`} alt={`${name} 样例`} className="up-sample-img" />
          <span className="up-muted">样例</span>
        </div>
      ) : null}
      <div className="up-item-slot">
        <UploadSlot {...slot} accept={MATERIAL_ACCEPT} multiple buttonText={done ? '继续上传' : '上传'} />
      </div>
    </li>
  );
}
