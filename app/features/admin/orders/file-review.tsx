// One file on the workbench: the image (a plain lazy <img>; a click opens the
// workbench's one shared preview, with zoom and rotate) or the PDF inline, its
// name and review state, and — while the operator may review it — 通过 /
// 不通过 (common reasons and/or a memo). Opening a file is logged by the server
// (/admin-files), so nothing here fetches files ahead of need: images load when
// scrolled near, and no per-file antd Image is made (a 20-applicant order has
// 200 files; issue 24 item 6).
import { Button, Checkbox, Input, Modal, Tag } from 'antd';
import { useState } from 'react';
import type { AdminReviewFile } from '../../../../common/contracts/admin-order';
import { formatDateTime } from '../../../../common/format';
import { REVIEW_LIMITS, REVIEW_REASON_VALUES, REVIEW_REASONS, type ReviewReason } from '../../../../common/review';

const STATUS_COLORS = { pending: 'processing', passed: 'success', no_pass: 'error' } as const;

export interface FileReviewProps {
  file: AdminReviewFile;
  itemName: string;
  canReview: boolean;
  busy: boolean;
  /** Opens the workbench's image preview on this file (images only). */
  onOpen: () => void;
  onReview: (result: 'pass' | 'no_pass', reasons: ReviewReason[], memo: string | null) => Promise<boolean>;
}

function NoPassDialog({
  open,
  title,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  title: string;
  onCancel: () => void;
  onSubmit: (reasons: ReviewReason[], memo: string) => Promise<void>;
}) {
  const [reasons, setReasons] = useState<ReviewReason[]>([]);
  const [memo, setMemo] = useState('');
  const [busy, setBusy] = useState(false);
  const empty = reasons.length === 0 && memo.trim() === '';
  return (
    <Modal
      title={title}
      open={open}
      onCancel={onCancel}
      okText="确定不通过"
      okButtonProps={{ danger: true, disabled: empty }}
      confirmLoading={busy}
      destroyOnHidden
      onOk={async () => {
        setBusy(true);
        await onSubmit(reasons, memo.trim());
        setBusy(false);
      }}
    >
      <p className="aw-muted">选择常见原因和/或填写说明，客户会看到这些内容。</p>
      <Checkbox.Group
        value={reasons}
        onChange={(values) => setReasons(values as ReviewReason[])}
        options={REVIEW_REASON_VALUES.map((value) => ({ value, label: REVIEW_REASONS[value] }))}
        data-testid="review-reasons"
      />
      <Input.TextArea
        className="aw-memo"
        style={{ marginTop: 12 }}
        rows={3}
        maxLength={REVIEW_LIMITS.memoMaxLength}
        showCount
        placeholder="其他说明（选填），例如：请上传彩色扫描件"
        aria-label="不通过说明"
        value={memo}
        onChange={(event) => setMemo(event.target.value)}
        data-testid="review-memo"
      />
    </Modal>
  );
}

export function FileReview({ file, itemName, canReview, busy, onOpen, onReview }: FileReviewProps) {
  const [dialog, setDialog] = useState(false);
  // The no-pass dialog is made the first time it opens (then kept, for its closing animation): a workbench
  // of 200 pending files renders no 200 closed dialogs on the server (issue 24 item 6).
  const [dialogMade, setDialogMade] = useState(false);
  const image = file.content_type !== 'application/pdf';
  return (
    <li className={`aw-file aw-file-${file.review_status}`} data-testid="review-file" data-file-id={file.file_id} data-review-status={file.review_status}>
      <div className="aw-file-view">
        {image ? (
          <button type="button" className="aw-thumb" onClick={onOpen} aria-label={`查看大图：${itemName}：${file.file_name}`}>
            <img src={file.url} alt={`${itemName}：${file.file_name}`} loading="lazy" decoding="async" />
          </button>
        ) : (
          <iframe className="aw-pdf" src={file.url} title={`${itemName}：${file.file_name}`} loading="lazy" />
        )}
      </div>
      <div className="aw-file-name" title={file.file_name}>
        {image ? (
          file.file_name
        ) : (
          <a href={file.url} target="_blank" rel="noopener noreferrer">
            {file.file_name}
          </a>
        )}
      </div>
      <div className="aw-file-status">
        <Tag color={STATUS_COLORS[file.review_status]}>{file.review_status_label}</Tag>
        {file.reviewed_by ? (
          <span className="aw-muted">
            {file.reviewed_by.name} · {formatDateTime(file.reviewed_at!)} · 第{file.review_round}轮
          </span>
        ) : null}
      </div>
      {file.no_pass_memo ? <div className="aw-file-memo">{file.no_pass_memo}</div> : null}
      {canReview && file.review_status === 'pending' ? (
        <div className="aw-file-actions">
          <Button type="primary" size="small" loading={busy} onClick={() => void onReview('pass', [], null)} data-testid="review-pass">
            通过
          </Button>
          <Button
            danger
            size="small"
            disabled={busy}
            onClick={() => {
              setDialogMade(true);
              setDialog(true);
            }}
            data-testid="review-no-pass"
          >
            不通过
          </Button>
          {dialogMade ? (
            <NoPassDialog
              open={dialog}
              title={`不通过：${itemName}`}
              onCancel={() => setDialog(false)}
              onSubmit={async (reasons, memo) => {
                if (await onReview('no_pass', reasons, memo || null)) setDialog(false);
              }}
            />
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
