// The page check (核页, issue 10) and the operator's submit. The operator (the
// order's assignee or a supervisor) uploads each applicant's filled-in
// application pages — PDF or images, a kind of stored file
// (page-check-files.ts): checked by their first bytes and their size exactly
// like the customer's uploads, stored in the same file storage — and
// publishes them (page_check_publish).
// The customer reads the published pages and, per applicant, confirms them
// (page_check_confirm) or asks for corrections with a comment on the page
// concerned (page_check_correction); the operator edits and republishes. The
// last confirmation ends the check in the same transaction (page_check_done):
// to `interview` when the product needs one, else the order waits in
// page_check for the operator's `submit` (→ submitted, with the embassy
// submission date). Every change is a lifecycle change guarded by the order's
// version (2032 when it moved on). Rules: docs/order-rules.md ("Page check").
import type { Kysely } from 'kysely';
import {
  type AdminPageCheckView,
  PAGE_CHECK_LIMITS,
  PAGE_CHECK_STATUS_LABELS,
  type PageCheckApplicantStatus,
  type PageCheckDecided,
  type PageCheckView,
} from '../../../common/contracts/page-check.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { chinaDate, isCalendarDate, isProcessing, type OrderStep, stepLabel } from '../../../common/order.ts';
import type { Database, PageCheckStatus } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Customer, Operator } from '../../platform/principal.ts';
import { createStoredFiles, type FileViewer, type StoredFileDeps, type UploadSource } from '../stored-file/stored-files.ts';
import {
  allowedSubEvents,
  type Change,
  checkAllowed,
  checkSubAllowed,
  createOrderLifecycle,
  type OrderRow,
  stateAllows,
  subFrom,
  subReached,
} from '../order/lifecycle.ts';
import { pageCheckPages, SHOWN_TO_CUSTOMER } from './page-check-files.ts';
import { createPageCheckRepository } from './page-check.repository.ts';

/** An applicant's pages confirmed: where the table's confirm leads. */
const pagesConfirmed = (status: PageCheckStatus | 'none' | undefined) => subReached('page_check', 'confirm', status === 'none' ? undefined : status);

function mayEdit(operator: Operator, order: Pick<OrderRow, 'assignee_operator_id'>): boolean {
  return operator.role === 'supervisor' || order.assignee_operator_id === operator.operatorId;
}

function pageUrl(audience: 'customer' | 'operator', page: { page_id: number; sha256: string }): string {
  return pageCheckPages.urlOf(audience, { id: page.page_id, sha256: page.sha256 });
}

export function createPageCheckService(db: Kysely<Database>, deps: StoredFileDeps) {
  const repo = createPageCheckRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const storedFiles = createStoredFiles(db, pageCheckPages, deps);

  /** Every applicant's check of an order; pages and comments for the audience. */
  async function build(order: OrderRow, caller: Customer | Operator): Promise<PageCheckView> {
    const audience = caller.kind === 'customer' ? 'customer' : 'operator';
    const at = deps.now();
    const [applicants, states, pages, comments] = await Promise.all([
      repo.applicants(order.user_order_id),
      repo.states(order.user_order_id),
      repo.pages(order.user_order_id),
      repo.comments(order.user_order_id),
    ]);
    const list = applicants.map((applicant) => {
      const state = states.find((s) => s.applicant_id === applicant.applicant_id);
      const status: PageCheckApplicantStatus = state?.status ?? 'none';
      const shown = audience === 'operator' || SHOWN_TO_CUSTOMER.includes(status);
      return {
        applicant_id: applicant.applicant_id,
        name: applicant.name,
        status,
        status_label: PAGE_CHECK_STATUS_LABELS[status],
        round: state?.round ?? 0,
        published_at: state?.published_at ?? null,
        confirmed_at: state?.confirmed_at ?? null,
        pages: shown
          ? pages
              .filter((p) => p.applicant_id === applicant.applicant_id)
              .map((p) => ({
                page_id: p.page_id,
                file_name: p.file_name,
                content_type: p.content_type,
                size: p.size_bytes,
                url: pageUrl(audience, p),
                created_at: p.created_at,
              }))
          : [],
        comments: comments
          .filter((c) => c.applicant_id === applicant.applicant_id)
          .map((c) => ({
            comment_id: c.comment_id,
            page_id: c.page_id,
            page_label: c.page_label,
            page_no: c.page_no,
            round: c.round,
            comment: c.comment,
            created_at: c.created_at,
          })),
        // No row yet is a draft to the table (an applicant whose pages were never uploaded).
        allowed_events: allowedSubEvents('page_check', state?.status ?? 'draft', order, caller, at),
      };
    });
    return {
      user_order_id: order.user_order_id,
      product_title: order.product_title,
      step: isProcessing(order) ? order.step : null,
      step_label: isProcessing(order) ? (stepLabel(order.step) ?? '') : '',
      version: order.version,
      need_interview: order.need_interview,
      all_confirmed: list.length > 0 && list.every((a) => pagesConfirmed(a.status)),
      submitted_date: order.submitted_date,
      applicants: list,
    };
  }

  /** The operator's guards of editing an applicant's pages (upload, delete). */
  async function editable(operator: Operator, order: OrderRow, applicantId: number, at: number) {
    checkAllowed('page_check_publish', order, operator, at);
    if (!mayEdit(operator, order)) throw new AppError(ErrorCode.REVIEW_NOT_ASSIGNEE);
    const applicants = await repo.applicants(order.user_order_id);
    const applicant = applicants.find((a) => a.applicant_id === applicantId);
    if (!applicant) throw new AppError(ErrorCode.PAGE_CHECK_APPLICANT_NOT_FOUND);
    // The table's refusal (2122): pages change only before publication or after a correction request.
    checkSubAllowed('page_check', 'edit_pages', (await repo.stateOf(db, applicantId)) ?? 'draft');
    return applicant;
  }

  /** Confirm or correction: the customer's guards on the applicant's published pages. */
  async function decidable(
    event: 'page_check_confirm' | 'page_check_correction',
    customer: Customer,
    order: OrderRow,
    input: { applicant_id: number; version: number },
    at: number,
  ) {
    checkAllowed(event, order, customer, at);
    if (order.version !== input.version) throw new AppError(ErrorCode.REVIEW_ORDER_STALE);
    const applicants = await repo.applicants(order.user_order_id);
    const applicant = applicants.find((a) => a.applicant_id === input.applicant_id);
    if (!applicant) throw new AppError(ErrorCode.PAGE_CHECK_APPLICANT_NOT_FOUND);
    const states = await repo.states(order.user_order_id);
    const state = states.find((s) => s.applicant_id === applicant.applicant_id);
    // The table's refusal (2124): only published pages are confirmed or sent back.
    checkSubAllowed('page_check', event === 'page_check_confirm' ? 'confirm' : 'correction', state?.status ?? 'draft');
    if (!state) throw new AppError(ErrorCode.PAGE_CHECK_NOT_PUBLISHED);
    return { applicant, state, applicants, states };
  }

  async function decided(customer: Customer, userOrderId: number, applicantId: number): Promise<PageCheckDecided> {
    const order = await lifecycle.current(customer, userOrderId);
    const view = await build(order, customer);
    return {
      applicant_id: applicantId,
      status: view.applicants.find((a) => a.applicant_id === applicantId)?.status ?? 'none',
      version: order.version,
      step: view.step,
      step_label: view.step_label,
      all_confirmed: view.all_confirmed,
    };
  }

  /**
   * What the order's records say against 递交使馆 now (the part of submit's rule
   * the order row cannot decide): every applicant confirmed, no open price
   * difference, with an interview every notice published. submit() refuses with
   * it and the operator's view shows it beside the disabled action, so the
   * button never promises what the call will refuse (issue 27).
   */
  async function submitBlocker(order: OrderRow): Promise<AppError | null> {
    const applicants = await repo.applicants(order.user_order_id);
    const states = await repo.states(order.user_order_id);
    if (applicants.some((a) => !pagesConfirmed(states.find((s) => s.applicant_id === a.applicant_id)?.status))) {
      return new AppError(ErrorCode.PAGE_CHECK_NOT_ALL_CONFIRMED);
    }
    if (Number(await repo.openPriceDifferences(order.user_order_id)) > 0) return new AppError(ErrorCode.SUBMIT_PRICE_DIFFERENCE_OPEN);
    if (order.need_interview) {
      const noticed = new Set(await repo.noticeApplicantIds(order.user_order_id));
      if (applicants.some((a) => !noticed.has(a.applicant_id))) return new AppError(ErrorCode.SUBMIT_INTERVIEW_NOTICE_MISSING);
    }
    return null;
  }

  return {
    /** The customer's view: published pages only (owner's enterprise only; others 1801). */
    async customerView(customer: Customer, userOrderId: number): Promise<PageCheckView> {
      return build(await lifecycle.current(customer, userOrderId), customer);
    },

    async operatorView(operator: Operator, userOrderId: number): Promise<AdminPageCheckView> {
      const order = await lifecycle.current(operator, userOrderId);
      const view = await build(order, operator);
      const at = deps.now();
      const submittable = stateAllows('submit', order, at) && mayEdit(operator, order);
      const blocker = submittable ? await submitBlocker(order) : null;
      return {
        ...view,
        can_edit: stateAllows('page_check_publish', order, at) && mayEdit(operator, order),
        can_submit: submittable && blocker === null,
        submit_blocked_reason: blocker?.message ?? null,
        paid_date: order.paid_at === null ? null : chinaDate(order.paid_at),
      };
    },

    /** One page file for an applicant (not yet published, or asked to be corrected). */
    async upload(operator: Operator, input: { user_order_id: number; applicant_id: number }, source: UploadSource) {
      const order = await lifecycle.current(operator, input.user_order_id);
      await editable(operator, order, input.applicant_id, deps.now());
      if ((await repo.countPages(db, input.applicant_id)) >= PAGE_CHECK_LIMITS.maxPagesPerApplicant) throw new AppError(ErrorCode.PAGE_CHECK_TOO_MANY_PAGES);

      // The bytes, exactly as a customer's upload: type from the first ones, size metered while stored.
      const upload = await storedFiles.store(source);
      const at = deps.now();
      const pageId = await storedFiles.keep(upload, () =>
        db.transaction().execute(async (trx) => {
          // Decided again inside the transaction: published meanwhile, or full.
          checkSubAllowed('page_check', 'edit_pages', (await repo.stateOf(trx, input.applicant_id)) ?? 'draft');
          if ((await repo.countPages(trx, input.applicant_id)) >= PAGE_CHECK_LIMITS.maxPagesPerApplicant)
            throw new AppError(ErrorCode.PAGE_CHECK_TOO_MANY_PAGES);
          return repo.insertPage(trx, {
            ...upload,
            user_order_id: order.user_order_id,
            applicant_id: input.applicant_id,
            operator_id: operator.operatorId,
            created_at: at,
          });
        }),
      );
      const status = (await repo.stateOf(db, input.applicant_id)) ?? 'draft';
      return {
        page_id: pageId,
        applicant_id: input.applicant_id,
        status,
        file_name: upload.file_name,
        content_type: upload.content_type,
        size: upload.size_bytes,
        url: pageUrl('operator', { page_id: pageId, sha256: upload.sha256 }),
        created_at: at,
      };
    },

    async deletePage(operator: Operator, userOrderId: number, pageId: number) {
      const order = await lifecycle.current(operator, userOrderId);
      const page = await repo.page(pageId);
      if (!page || page.user_order_id !== order.user_order_id) throw new AppError(ErrorCode.PAGE_CHECK_PAGE_NOT_FOUND);
      await editable(operator, order, page.applicant_id, deps.now());
      const deleted = await db.transaction().execute(async (trx) => {
        checkSubAllowed('page_check', 'edit_pages', (await repo.stateOf(trx, page.applicant_id)) ?? 'draft');
        return repo.deletePage(trx, pageId);
      });
      if (!deleted) throw new AppError(ErrorCode.PAGE_CHECK_PAGE_NOT_FOUND);
      await storedFiles.drop(page.storage_key, 'page deleted');
      return { page_id: pageId };
    },

    /** Publishes (or republishes after a correction) an applicant's pages: the customer is told. */
    async publish(operator: Operator, input: { user_order_id: number; applicant_id: number; version: number }) {
      let round = 0;
      const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        checkAllowed('page_check_publish', order, operator, at);
        if (order.version !== input.version) throw new AppError(ErrorCode.REVIEW_ORDER_STALE);
        if (!mayEdit(operator, order)) throw new AppError(ErrorCode.REVIEW_NOT_ASSIGNEE);
        const applicants = await repo.applicants(order.user_order_id);
        const applicant = applicants.find((a) => a.applicant_id === input.applicant_id);
        if (!applicant) throw new AppError(ErrorCode.PAGE_CHECK_APPLICANT_NOT_FOUND);
        const states = await repo.states(order.user_order_id);
        const current = states.find((s) => s.applicant_id === applicant.applicant_id);
        // The table's refusal (2122): published or confirmed pages are not published again.
        checkSubAllowed('page_check', 'publish', current?.status ?? 'draft');
        const pages = await repo.countPages(db, applicant.applicant_id);
        if (!current || pages === 0) throw new AppError(ErrorCode.PAGE_CHECK_NO_PAGES);
        round = current.round + 1;
        return {
          event: 'page_check_publish',
          within: async (trx) => {
            if ((await repo.countPages(trx, applicant.applicant_id)) === 0) throw new AppError(ErrorCode.PAGE_CHECK_NO_PAGES);
            if (!(await repo.setStatus(trx, applicant.applicant_id, subFrom('page_check', 'publish'), 'published', at, { published: true }))) {
              throw new AppError(ErrorCode.PAGE_CHECK_LOCKED);
            }
          },
          detail: { applicant_id: applicant.applicant_id, applicant_name: applicant.name, round, pages },
        };
      });
      return { applicant_id: input.applicant_id, round, version: state.version };
    },

    /** The customer confirms an applicant's pages; the last confirmation ends the check. */
    async confirm(customer: Customer, input: { user_order_id: number; applicant_id: number; version: number }): Promise<PageCheckDecided> {
      await lifecycle.change(customer, input.user_order_id, async (order, at) => {
        const { applicant, state, applicants, states } = await decidable('page_check_confirm', customer, order, input, at);
        const changes: Change[] = [
          {
            event: 'page_check_confirm',
            within: async (trx) => {
              if (!(await repo.setStatus(trx, applicant.applicant_id, subFrom('page_check', 'confirm'), 'confirmed', at, { confirmed: true }))) {
                throw new AppError(ErrorCode.PAGE_CHECK_NOT_PUBLISHED);
              }
            },
            detail: { applicant_id: applicant.applicant_id, applicant_name: applicant.name, round: state.round },
          },
        ];
        const othersConfirmed = applicants.every(
          (a) => a.applicant_id === applicant.applicant_id || pagesConfirmed(states.find((s) => s.applicant_id === a.applicant_id)?.status),
        );
        if (othersConfirmed) {
          changes.push({
            event: 'page_check_done',
            to: order.need_interview ? 'processing:interview' : 'processing:page_check',
            within: async (trx) => {
              // Under the order row's lock: every applicant must be confirmed now.
              const fresh = await repo.states(order.user_order_id, trx);
              if (applicants.some((a) => !pagesConfirmed(fresh.find((s) => s.applicant_id === a.applicant_id)?.status))) {
                throw new AppError(ErrorCode.ORDER_CONFLICT);
              }
            },
            detail: { applicants: applicants.length, next: order.need_interview ? 'interview' : 'submit' },
          });
        }
        return changes;
      });
      return decided(customer, input.user_order_id, input.applicant_id);
    },

    /** The customer asks for corrections: at least one comment, each on a page of that applicant. */
    async correction(
      customer: Customer,
      input: { user_order_id: number; applicant_id: number; version: number; comments: Array<{ page_id: number; page_no?: number | null; comment: string }> },
    ): Promise<PageCheckDecided> {
      const comments = input.comments.map((c) => ({ ...c, comment: c.comment.trim() })).filter((c) => c.comment !== '');
      await lifecycle.change(customer, input.user_order_id, async (order, at) => {
        const { applicant, state } = await decidable('page_check_correction', customer, order, input, at);
        if (comments.length === 0) throw new AppError(ErrorCode.PAGE_CHECK_COMMENT_REQUIRED);
        const pages = (await repo.pages(order.user_order_id)).filter((p) => p.applicant_id === applicant.applicant_id);
        const rows = comments.map((c) => {
          const page = pages.find((p) => p.page_id === c.page_id);
          if (!page) throw new AppError(ErrorCode.PAGE_CHECK_PAGE_NOT_FOUND);
          const index = pages.indexOf(page) + 1;
          const pageNo = page.content_type === 'application/pdf' ? (c.page_no ?? null) : null;
          return {
            user_order_id: order.user_order_id,
            applicant_id: applicant.applicant_id,
            page_id: page.page_id,
            page_label: `第 ${index} 页（${page.file_name}）${pageNo ? `，PDF 第 ${pageNo} 页` : ''}`.slice(0, 300),
            page_no: pageNo,
            round: state.round,
            comment: c.comment,
            account_id: customer.accountId,
            created_at: at,
          };
        });
        return {
          event: 'page_check_correction',
          within: async (trx) => {
            if (!(await repo.setStatus(trx, applicant.applicant_id, subFrom('page_check', 'correction'), 'correction', at)))
              throw new AppError(ErrorCode.PAGE_CHECK_NOT_PUBLISHED);
            await repo.insertComments(trx, rows);
          },
          detail: { applicant_id: applicant.applicant_id, applicant_name: applicant.name, round: state.round, comments: rows.length },
        };
      });
      return decided(customer, input.user_order_id, input.applicant_id);
    },

    /** 递交使馆: every applicant confirmed; the embassy submission date from the paid day to today. */
    async submit(operator: Operator, input: { user_order_id: number; version: number; submitted_date: string }) {
      const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        checkAllowed('submit', order, operator, at);
        if (order.version !== input.version) throw new AppError(ErrorCode.REVIEW_ORDER_STALE);
        if (!mayEdit(operator, order)) throw new AppError(ErrorCode.REVIEW_NOT_ASSIGNEE);
        const blocker = await submitBlocker(order);
        if (blocker) throw blocker;
        const applicants = await repo.applicants(order.user_order_id);
        const date = input.submitted_date.trim();
        const paidDay = order.paid_at === null ? null : chinaDate(order.paid_at);
        if (!isCalendarDate(date) || date > chinaDate(at) || (paidDay !== null && date < paidDay)) throw new AppError(ErrorCode.PAGE_CHECK_SUBMIT_DATE_INVALID);
        return { event: 'submit', set: { submitted_date: date }, detail: { submitted_date: date, applicants: applicants.length } };
      });
      return {
        user_order_id: input.user_order_id,
        step: state.step as OrderStep | null,
        step_label: stepLabel(state.step) ?? '',
        version: state.version,
        submitted_date: input.submitted_date.trim(),
      };
    },

    /** The pages as a kind of stored file (their routes). */
    storedFiles,

    /** A page file for a viewer: the customer of the order's enterprise (published pages only), or any operator (logged). */
    fileFor: (viewer: FileViewer, pageId: number) => storedFiles.fileFor(viewer, pageId),
  };
}

export type PageCheckService = ReturnType<typeof createPageCheckService>;
