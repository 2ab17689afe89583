// The confirm dialog: each applicant's chosen time and where to go, before
// the times are booked.
import { EnvironmentOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { InterviewSlotListResult } from '../../../../common/contracts/interview';
import { AppDialog } from '../../../components/app-dialog';
import { type Selection, slotIndex, slotLabel } from './interview-model';

export interface InterviewConfirmDialogProps {
  open: boolean;
  list: InterviewSlotListResult;
  selection: Selection;
  submitting: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

export function InterviewConfirmDialog({ open, list, selection, submitting, onClose, onConfirm }: InterviewConfirmDialogProps) {
  const index = slotIndex(list);
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title="确认面试时间"
      subtitle="请确认每位申请人的面试/录指纹时间"
      width={520}
      destroyOnHidden
      footer={
        <div className="ci-dialog-footer">
          <Button onClick={onClose} disabled={submitting}>
            返回修改
          </Button>
          <Button type="primary" onClick={onConfirm} loading={submitting} data-testid="interview-confirm-submit">
            确认预约
          </Button>
        </div>
      }
    >
      <div data-testid="interview-confirm-dialog">
        <ul className="ci-dialog-list">
          {list.applicants.map((applicant) => {
            const chosen = selection[applicant.applicant_id];
            const ref = chosen == null ? undefined : index.get(chosen);
            return (
              <li key={applicant.applicant_id} className="ci-dialog-item">
                <span className="ci-dialog-name">{applicant.name}</span>
                <span className="ci-dialog-time">{ref ? slotLabel(ref) : '未选择'}</span>
              </li>
            );
          })}
        </ul>
        <div className="ci-dialog-place">
          <EnvironmentOutlined />
          <div>
            <div className="ci-dialog-consulate">{list.consulate.consulate_name}</div>
            <div className="ci-muted">{list.consulate.address}</div>
          </div>
        </div>
        <p className="ci-muted ci-dialog-note">请按预约时间携带护照原件提前到达领馆；预约成功后，如需改期请在订单确认前重新选择。</p>
      </div>
    </AppDialog>
  );
}
