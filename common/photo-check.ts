// The visa photo check (issue 28): what the upload page, the customer's
// choice and the operator's review show of it.

/** pass: compliant as uploaded; fixed: a processed photo was made (the customer keeps either); fail: cannot be fixed; error: not checked. */
export const PHOTO_VERDICTS = ['pass', 'fixed', 'fail', 'error'] as const;
export type PhotoVerdict = (typeof PHOTO_VERDICTS)[number];

export const PHOTO_VERDICT_LABELS: Record<PhotoVerdict, string> = {
  pass: '照片合格',
  fixed: '可自动处理',
  fail: '照片不合格',
  error: '未能检测',
};

/** Which photo the applicant's file holds after a fixable check: null = not chosen yet (the original stays). */
export type PhotoChoice = 'original' | 'processed' | null;

export interface PhotoCheckView {
  file_id: number;
  verdict: PhotoVerdict;
  verdict_label: string;
  /** Why it is not compliant (Chinese, one reason a line); empty when it passed. */
  problems: string[];
  /** What the processing did (Chinese), when verdict is fixed. */
  fixes: string[];
  choice: PhotoChoice;
  /** The processed photo (JPEG, data: URL) while the choice is open; null otherwise. */
  processed_preview: string | null;
  /** Print size the photo was checked against. */
  rule: { color_name: string; width: number; height: number };
  checked_at: number;
}

/** The operator's short line beside the photo: "照片检测：可自动处理（客户已采用处理后的照片）；…". */
export function photoCheckSummary(check: Pick<PhotoCheckView, 'verdict' | 'problems' | 'fixes' | 'choice'>): string {
  const label = PHOTO_VERDICT_LABELS[check.verdict];
  if (check.verdict === 'fixed') {
    const chosen = check.choice === 'processed' ? '客户已采用处理后的照片' : check.choice === 'original' ? '客户保留了原照片' : '客户尚未选择';
    return `照片检测：${label}（${chosen}）：${check.fixes.join('、')}`;
  }
  if (check.verdict === 'fail' || check.verdict === 'error') return `照片检测：${label}：${check.problems.join('；')}`;
  return `照片检测：${label}`;
}
