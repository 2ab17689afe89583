// 资料审核 by keyboard (issue 27): one applicant's files as a compact list,
// the chosen file large beside its checklist item (name, attention, sample),
// images and PDFs drawn inline with zoom and rotate. Keys: J/K next/previous
// file, P pass, F no-pass (the reason dialog opens focused; Enter confirms),
// A pass the rest of this applicant's files. A decision shows at once and
// the cursor moves to the next pending file; the calls go out one after
// another, each with the version the previous answer gave (a review bumps
// the order's version), and the workbench is read again once they are done.
// After the order's last file the round ends and the next order of the
// operator's queue in 资料审核中 opens. Only the chosen file is drawn: the
// page renders one viewer, not 200 tiles (issue 24 item 6).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import type { AdminReviewFile, AdminWorkbench } from '../../../../common/contracts/admin-order';
import { REUSED_FROM_TRAVELLER_TAG } from '../../../../common/traveller';
import { formatDateTime } from '../../../../common/format';
import type { ReviewReason } from '../../../../common/review';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { adminApi } from '../admin-api';
import { NoPassDialog } from './file-review';
import { PdfPages } from './pdf-pages';
import './fast-review.css';

type Applicant = AdminWorkbench['applicants'][number];
type Item = Applicant['items'][number];
interface Entry {
  applicant: number;
  item: Item;
  file: AdminReviewFile;
}
type Decision = 'passed' | 'no_pass';

const STATUS_LABELS = { pending: '待审核', passed: '已通过', no_pass: '未通过' } as const;

/** Every file of the order in page order, with its applicant's index and checklist item. */
function entriesOf(applicants: Applicant[]): Entry[] {
  return applicants.flatMap((applicant, index) => applicant.items.flatMap((item) => item.files.map((file) => ({ applicant: index, item, file }))));
}

/** Is the key press meant for a field (or a dialog) rather than the review? */
function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  if (!target) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('[role="dialog"]') !== null;
}

export function FastReview({ bench, canReview }: { bench: AdminWorkbench; canReview: boolean }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const entries = useMemo(() => entriesOf(bench.applicants), [bench.applicants]);
  // Decisions made here and not yet in the view the page shows.
  const [decided, setDecided] = useState<ReadonlyMap<number, Decision>>(new Map());
  const statusOf = (file: AdminReviewFile) => decided.get(file.file_id) ?? file.review_status;
  const firstPending = entries.findIndex((entry) => entry.file.review_status === 'pending');
  const [cursor, setCursor] = useState(Math.max(0, firstPending));
  const [noPassOpen, setNoPassOpen] = useState(false);
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  // The calls in order, each with the version its predecessor's answer gave.
  const version = useRef(bench.order.version);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const inFlight = useRef(0);
  if (inFlight.current === 0 && bench.order.version > version.current) version.current = bench.order.version;

  const current = entries[Math.min(cursor, entries.length - 1)];
  const applicantIndex = current?.applicant ?? 0;
  const applicant = bench.applicants[applicantIndex];

  useEffect(() => {
    setZoom(1);
    setRotation(0);
  }, [cursor]);

  /** The next pending file after `from` (wrapping), given decisions `made`; -1 when none is left. */
  function nextPending(from: number, made: ReadonlyMap<number, Decision>): number {
    for (let step = 1; step <= entries.length; step += 1) {
      const index = (from + step) % entries.length;
      const file = entries[index]!.file;
      if ((made.get(file.file_id) ?? file.review_status) === 'pending') return index;
    }
    return -1;
  }

  async function openNextOrder() {
    try {
      const mine = await adminApi('/admin-api/order/queue', { step: 'material_review', assignee: 'me', page: 1, page_size: 5 }, { toast: false });
      const next = mine.list.find((row) => row.user_order_id !== bench.order.user_order_id);
      await navigate(next ? `/admin/orders/${next.user_order_id}` : '/admin/orders');
    } catch {
      await navigate('/admin/orders');
    }
  }

  /** Sends one decision after the ones before it. */
  function send(file: AdminReviewFile, result: 'pass' | 'no_pass', reasons: ReviewReason[], memo: string | null): Promise<boolean> {
    inFlight.current += 1;
    const done = chain.current.then(async () => {
      try {
        const answer = await adminApi(
          '/admin-api/order/file_review',
          { user_order_id: bench.order.user_order_id, file_id: file.file_id, version: version.current, result, reasons, memo },
          { toast: false },
        );
        version.current = answer.version;
        if (answer.round_result === 'passed') {
          toast.success(`资料审核通过，订单进入“${answer.step_label}”`);
          await openNextOrder();
        } else if (answer.round_result === 'failed') {
          toast.warning('本轮审核结束：有资料未通过，已通知客户重新上传');
          await openNextOrder();
        }
        return true;
      } catch (error) {
        if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(error instanceof ApiError ? error.message : '操作失败，请重试');
        // The order as it now is: the decisions not stored are dropped with the stale view.
        inFlight.current = 0;
        chain.current = Promise.resolve();
        setDecided(new Map());
        await revalidator.revalidate();
        return false;
      } finally {
        inFlight.current = Math.max(0, inFlight.current - 1);
        if (inFlight.current === 0) void revalidator.revalidate();
      }
    });
    chain.current = done.then(() => undefined);
    return done;
  }

  function decide(targets: Entry[], decision: Decision, reasons: ReviewReason[] = [], memo: string | null = null): Promise<boolean> {
    const pending = targets.filter((entry) => statusOf(entry.file) === 'pending');
    if (pending.length === 0) return Promise.resolve(true);
    const made = new Map(decided);
    for (const entry of pending) made.set(entry.file.file_id, decision);
    setDecided(made);
    const next = nextPending(cursor, made);
    if (next >= 0) setCursor(next);
    const sent = pending.map((entry) => send(entry.file, decision === 'passed' ? 'pass' : 'no_pass', reasons, memo));
    return Promise.all(sent).then((results) => results.every(Boolean));
  }

  const pass = () => (current ? void decide([current], 'passed') : undefined);
  const passRest = () =>
    void decide(
      entries.filter((entry) => entry.applicant === applicantIndex),
      'passed',
    );
  const mayDecide = canReview && current !== undefined && statusOf(current.file) === 'pending';

  // The keys live on the window while the review is shown (not while a field or the dialog has them).
  const keys = useRef<(event: KeyboardEvent) => void>(() => undefined);
  keys.current = (event: KeyboardEvent) => {
    if (typing(event) || noPassOpen) return;
    const key = event.key.toLowerCase();
    if (key === 'j') setCursor((at) => Math.min(entries.length - 1, at + 1));
    else if (key === 'k') setCursor((at) => Math.max(0, at - 1));
    else if (key === 'p' && mayDecide) pass();
    else if (key === 'f' && mayDecide) setNoPassOpen(true);
    else if (key === 'a' && canReview) passRest();
    else return;
    event.preventDefault();
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  if (!current || !applicant) return <p className="aw-muted">没有已上传的资料。</p>;
  const file = current.file;
  const isPdf = file.content_type === 'application/pdf';
  const title = `${applicant.name} ${current.item.name}：${file.file_name}`;
  const status = statusOf(file);
  const pendingOf = (index: number) => entries.filter((entry) => entry.applicant === index && statusOf(entry.file) === 'pending').length;

  return (
    <div className="fr" data-testid="fast-review">
      <nav className="fr-side" aria-label="申请人与文件">
        <label className="fr-applicant-pick">
          <span className="aw-muted">申请人</span>
          <select
            value={applicantIndex}
            onChange={(event) => {
              const index = Number(event.target.value);
              const first = entries.findIndex((entry) => entry.applicant === index);
              if (first >= 0) setCursor(first);
            }}
            data-testid="review-applicant"
          >
            {bench.applicants.map((a, index) => (
              <option key={a.applicant_id} value={index}>
                {a.name}（{a.identity_label}）{pendingOf(index) > 0 ? ` · 待审 ${pendingOf(index)}` : ''}
              </option>
            ))}
          </select>
        </label>
        <ol className="fr-files">
          {entries.map((entry, index) =>
            entry.applicant === applicantIndex ? (
              <li key={entry.file.file_id}>
                <button
                  type="button"
                  className={`fr-file fr-${statusOf(entry.file)}`}
                  aria-current={index === cursor ? 'true' : undefined}
                  onClick={() => setCursor(index)}
                  data-testid="review-file"
                  data-file-id={entry.file.file_id}
                  data-review-status={statusOf(entry.file)}
                >
                  <span className="fr-file-item">{entry.item.name}</span>
                  {entry.file.reused_from_traveller ? (
                    <span className="fr-file-reused" data-testid="review-file-reused">
                      {REUSED_FROM_TRAVELLER_TAG}
                    </span>
                  ) : null}
                  <span className="fr-file-status">{STATUS_LABELS[statusOf(entry.file)]}</span>
                </button>
              </li>
            ) : null,
          )}
        </ol>
      </nav>
      <div className="fr-main">
        <div className="fr-toolbar" role="toolbar" aria-label="查看">
          <span className="fr-title" title={title}>
            {title}
          </span>
          {file.reused_from_traveller ? (
            <span className="fr-reused-tag" data-testid="review-reused-tag" title="客户从常用出行人保存的证件中选用，与其保存的是同一文件">
              {REUSED_FROM_TRAVELLER_TAG}
            </span>
          ) : null}
          <button type="button" onClick={() => setZoom((z) => Math.max(0.25, z / 1.25))} aria-label="缩小">
            －
          </button>
          <span className="aw-muted">{Math.round(zoom * 100)}%</span>
          <button type="button" onClick={() => setZoom((z) => Math.min(5, z * 1.25))} aria-label="放大">
            ＋
          </button>
          <button type="button" onClick={() => setRotation((r) => (r + 90) % 360)} aria-label="旋转 90 度" data-testid="review-rotate">
            ⟳
          </button>
          <button
            type="button"
            onClick={() => {
              setZoom(1);
              setRotation(0);
            }}
          >
            复原
          </button>
        </div>
        <div className="fr-view" data-testid="review-view">
          <div className="fr-canvas" style={{ transform: `rotate(${rotation}deg) scale(${zoom})` }}>
            {isPdf ? <PdfPages key={file.url} url={file.url} title={title} /> : <img key={file.url} src={file.url} alt={title} decoding="async" />}
          </div>
        </div>
      </div>
      <aside className="fr-item" aria-label="资料要求与审核">
        <h3>
          {current.item.name} <span className={current.item.required ? 'fr-required' : 'aw-muted'}>{current.item.required ? '必备' : '选填'}</span>
        </h3>
        {current.item.attention.trim() ? <p className="fr-attention">{current.item.attention.trim()}</p> : <p className="aw-muted">无特别要求</p>}
        {current.item.sample ? (
          <figure className="fr-sample">
            <img src={current.item.sample} alt={`${current.item.name} 样例`} loading="lazy" />
            <figcaption className="aw-muted">样例</figcaption>
          </figure>
        ) : null}
        {file.photo_check ? (
          <p className="fr-photo-check" data-testid="review-photo-check">
            {file.photo_check}
          </p>
        ) : null}
        <p className={`fr-state fr-${status}`} data-testid="review-current-status">
          {STATUS_LABELS[status]}
          {file.reviewed_by && !decided.has(file.file_id) ? (
            <span className="aw-muted">
              {' '}
              · {file.reviewed_by.name} · {formatDateTime(file.reviewed_at!)} · 第{file.review_round}轮
            </span>
          ) : null}
        </p>
        {file.no_pass_memo && !decided.has(file.file_id) ? <p className="fr-memo">{file.no_pass_memo}</p> : null}
        {canReview ? (
          <div className="fr-actions">
            <button type="button" className="fr-btn fr-pass" disabled={!mayDecide} onClick={pass} data-testid="review-pass">
              通过 <kbd>P</kbd>
            </button>
            <button type="button" className="fr-btn fr-fail" disabled={!mayDecide} onClick={() => setNoPassOpen(true)} data-testid="review-no-pass">
              不通过 <kbd>F</kbd>
            </button>
            <button type="button" className="fr-btn" disabled={pendingOf(applicantIndex) === 0} onClick={passRest} data-testid="review-pass-rest">
              {applicant.name} 其余全部通过 <kbd>A</kbd>
            </button>
          </div>
        ) : null}
        <p className="aw-muted fr-keys">
          <kbd>J</kbd>/<kbd>K</kbd> 下一个/上一个文件
          {/* Only the keys that do something here: outside a review the files are shown, not decided. */}
          {canReview ? (
            <>
              {' '}
              · <kbd>P</kbd> 通过 · <kbd>F</kbd> 不通过 · <kbd>A</kbd> 本申请人其余全部通过
            </>
          ) : null}
        </p>
      </aside>
      {noPassOpen ? (
        <NoPassDialog
          open
          title={`不通过：${title}`}
          onCancel={() => setNoPassOpen(false)}
          onSubmit={async (reasons, memo) => {
            setNoPassOpen(false);
            await decide([current], 'no_pass', reasons, memo || null);
          }}
        />
      ) : null}
    </div>
  );
}
