// The visa photo check's verdict under the photo (issue 28): compliant; or
// processed — the original and the processed photo side by side with what was
// done, and the customer keeps either; or not compliant — each reason, at
// once, so a new photo can be taken before the order goes to review.
import { CheckCircleFilled, CloseCircleFilled, InfoCircleFilled } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { PhotoCheckView } from '../../../common/photo-check';
import { ApiError, api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import './photo-check.css';

export interface PhotoCheckPanelProps {
  check: PhotoCheckView;
  userOrderId: number;
  /** The uploaded photo as stored (the "before"). */
  originalUrl: string;
  /** The photo may still be changed (draft, or a re-upload of this item). */
  editable: boolean;
}

export function PhotoCheckPanel({ check, userOrderId, originalUrl, editable }: PhotoCheckPanelProps) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<'original' | 'processed' | null>(null);
  const rule = `${check.rule.color_name}背景、${check.rule.width}×${check.rule.height} mm`;

  const choose = async (choice: 'original' | 'processed') => {
    setBusy(choice);
    try {
      await api('/www/order/photo_choice', { user_order_id: userOrderId, file_id: check.file_id, choice }, { toast: false });
      toast.success(choice === 'processed' ? '已使用处理后的照片' : '已保留原照片');
      await revalidator.revalidate();
    } catch (error) {
      if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(error instanceof ApiError ? error.message : '操作失败，请重试');
    } finally {
      setBusy(null);
    }
  };

  if (check.verdict === 'pass') {
    return (
      <div className="pc-panel pc-pass" data-testid="photo-check" data-verdict="pass">
        <CheckCircleFilled aria-hidden="true" /> 照片检测合格（{rule}）
      </div>
    );
  }
  if (check.verdict === 'fail' || check.verdict === 'error') {
    return (
      <div className={`pc-panel ${check.verdict === 'fail' ? 'pc-fail' : 'pc-info'}`} data-testid="photo-check" data-verdict={check.verdict} role="alert">
        <div className="pc-title">
          {check.verdict === 'fail' ? <CloseCircleFilled aria-hidden="true" /> : <InfoCircleFilled aria-hidden="true" />}
          {check.verdict === 'fail' ? ' 照片不符合要求，无法自动处理，请重新拍摄后上传：' : ' 照片暂未能自动检测'}
        </div>
        <ul className="pc-list">
          {check.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </div>
    );
  }
  // Fixed.
  if (check.choice !== null || !check.processed_preview) {
    return (
      <div
        className={`pc-panel ${check.choice === 'original' ? 'pc-info' : 'pc-pass'}`}
        data-testid="photo-check"
        data-verdict="fixed"
        data-choice={check.choice ?? ''}
      >
        {check.choice === 'original' ? <InfoCircleFilled aria-hidden="true" /> : <CheckCircleFilled aria-hidden="true" />}
        {check.choice === 'original' ? ` 已保留原照片（自动处理可做：${check.fixes.join('、')}）` : ` 已使用处理后的照片：${check.fixes.join('、')}`}
      </div>
    );
  }
  return (
    <div className="pc-panel pc-fixed" data-testid="photo-check" data-verdict="fixed" data-choice="">
      <div className="pc-title">
        <InfoCircleFilled aria-hidden="true" /> 照片已自动处理为{rule}，请确认使用哪一张：
      </div>
      <div className="pc-compare">
        <figure>
          <img src={originalUrl} alt="原照片" />
          <figcaption>原照片</figcaption>
        </figure>
        <figure>
          <img src={check.processed_preview} alt="处理后的照片" data-testid="photo-check-processed" />
          <figcaption>处理后</figcaption>
        </figure>
      </div>
      <div className="pc-subtitle">已自动处理：</div>
      <ul className="pc-list" data-testid="photo-check-fixes">
        {check.fixes.map((fix) => (
          <li key={fix}>{fix}</li>
        ))}
      </ul>
      {editable ? (
        <div className="pc-actions">
          <Button type="primary" loading={busy === 'processed'} disabled={busy !== null} onClick={() => void choose('processed')}>
            使用处理后的照片
          </Button>
          <Button loading={busy === 'original'} disabled={busy !== null} onClick={() => void choose('original')}>
            保留原照片
          </Button>
        </div>
      ) : null}
    </div>
  );
}
