// One applicant: their identity's checklist — the visa photo and the
// electronic items to upload here, then (folded) what is mailed later or
// brought to the embassy, which needs no upload.
import { Collapse, Tag } from 'antd';
import type { ApplicantMaterials, ChecklistItem, MaterialListResult } from '../../../../common/contracts/material';
import { MaterialItem } from '../../../components/upload/material-item';
import { PhotoItem } from '../../../components/upload/photo-item';
import { requiredProgress, targetKey, type UploadTarget } from '../../../components/upload/upload-model';
import type { InFlight } from '../../../components/upload/use-uploads';

export interface ApplicantCardProps {
  list: MaterialListResult;
  applicant: ApplicantMaterials;
  index: number;
  inFlight: InFlight[];
  onUpload: (target: UploadTarget, file: File, replaceFileId: number | null) => void;
  onDelete: (fileId: number) => Promise<void>;
  onDismiss: (uid: string) => void;
}

function PaperList({ items }: { items: ChecklistItem[] }) {
  return (
    <ul className="up-paper">
      {items.map((item) => (
        <li key={item.material_id}>
          <div className="up-paper-name">
            {item.required ? <span className="up-required">*</span> : null}
            {item.name}
          </div>
          {item.attention.trim() ? <div className="up-muted up-paper-attention">{item.attention.trim()}</div> : null}
        </li>
      ))}
    </ul>
  );
}

export function ApplicantCard({ list, applicant, index, inFlight, onUpload, onDelete, onDismiss }: ApplicantCardProps) {
  const progress = requiredProgress(list, applicant.applicant_id);
  const slot = (materialId: number | null) => {
    const target = { applicantId: applicant.applicant_id, materialId };
    return {
      inFlight: inFlight.filter((item) => item.key === targetKey(target)),
      onUpload: (file: File, replaceFileId: number | null) => onUpload(target, file, replaceFileId),
      onDelete,
      onDismiss,
    };
  };
  const paper = [
    { key: 'mailed', label: `邮寄资料（${applicant.mailed.length} 项，确认订单后寄送原件）`, items: applicant.mailed },
    { key: 'bring', label: `赴馆资料（${applicant.bring.length} 项，面试/录指纹时本人携带）`, items: applicant.bring },
  ].filter((group) => group.items.length > 0);

  return (
    <section className="up-section up-applicant" data-testid="upload-applicant" data-applicant-id={applicant.applicant_id}>
      <header className="up-applicant-head">
        <span className="up-applicant-index">{index + 1}</span>
        <span className="up-applicant-name">{applicant.name}</span>
        <Tag className="up-identity">{applicant.identity_label}</Tag>
        <span className={progress.done === progress.total ? 'up-applicant-progress up-done' : 'up-applicant-progress'} data-testid="upload-applicant-progress">
          必备资料 {progress.done}/{progress.total}
        </span>
      </header>
      <ul className="up-items">
        {applicant.photo ? (
          <PhotoItem
            spec={list.photo_spec}
            files={applicant.photo.files}
            editable={applicant.photo.editable}
            check={applicant.photo.check}
            userOrderId={list.user_order_id}
            {...slot(null)}
          />
        ) : null}
        {applicant.electronic.map((item) => (
          <MaterialItem
            key={item.material_id}
            name={item.name}
            required={item.required}
            attention={item.attention}
            sample={item.sample}
            files={item.files}
            editable={item.editable}
            maxFiles={list.max_files_per_material}
            {...slot(item.material_id)}
          />
        ))}
      </ul>
      {paper.length > 0 ? (
        <Collapse
          ghost
          size="small"
          className="up-paper-collapse"
          items={[
            {
              key: 'paper',
              label: '无需上传的资料',
              children: paper.map((group) => (
                <div key={group.key} className="up-paper-group">
                  <div className="up-paper-title">{group.label}</div>
                  <PaperList items={group.items} />
                </div>
              )),
            },
          ]}
        />
      ) : null}
    </section>
  );
}
