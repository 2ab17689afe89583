// 不通过 for one file: common reasons and/or a memo the customer sees. The
// dialog opens with its first reason focused (the review's F key), Space
// ticks a reason, Enter confirms (Shift+Enter is a new line in the memo).
// The files themselves are shown by fast-review.tsx.
import { Checkbox, Input, Modal } from 'antd';
import { useRef, useState } from 'react';
import { REVIEW_LIMITS, REVIEW_REASON_VALUES, REVIEW_REASONS, type ReviewReason } from '../../../../common/review';

export function NoPassDialog({
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
  const body = useRef<HTMLDivElement>(null);
  const empty = reasons.length === 0 && memo.trim() === '';

  async function submit() {
    if (empty || busy) return;
    setBusy(true);
    await onSubmit(reasons, memo.trim());
    setBusy(false);
  }

  return (
    <Modal
      title={title}
      open={open}
      onCancel={onCancel}
      okText="确定不通过"
      okButtonProps={{ danger: true, disabled: empty }}
      confirmLoading={busy}
      destroyOnHidden
      onOk={() => void submit()}
      afterOpenChange={(opened) => {
        if (opened) body.current?.querySelector<HTMLInputElement>('input[type=checkbox]')?.focus();
      }}
    >
      <div
        ref={body}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void submit();
          }
        }}
      >
        <p className="aw-muted">选择常见原因和/或填写说明，客户会看到这些内容。按 Enter 确定。</p>
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
      </div>
    </Modal>
  );
}
