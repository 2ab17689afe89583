// The daily reconciliation (issue 25, decision 0038). Once a provider's bill
// of a China day is out (after 10:00 the next day: WeChat Pay's is ready
// from 10:00, Alipay's earlier), each configured provider's bill is
// downloaded and compared with our payments and refunds of that day
// (compare.ts). Each provider and day is run once, by whichever instance
// claims it first (a unique run row); a failed download is tried again at
// the job's next tick, and the last three days are looked at so a day the
// app was down is caught up. Differences are stored for the back office,
// counted in /metrics and announced to the supervisors (an in-app notice).
// A supervisor marks each one explained, with a note (who and when kept).
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Counter, Gauge, type Registry } from 'prom-client';
import {
  RECONCILIATION_KINDS,
  RECONCILIATION_PAGE_SIZE,
  type ReconciliationDifferenceView,
  type ReconciliationListResult,
} from '../../../common/contracts/reconciliation.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { type BillDate, type BillLine, chinaDayRange, previousChinaDay } from '../payment/bill.ts';
import type { OperatorDirectory } from '../operator/directory.ts';
import { compareBill, type Difference } from './compare.ts';
import { createReconciliationRecords, type DifferenceRow } from './reconciliation-records.ts';

/** A provider that can hand over its daily bill (PaymentProvider.downloadBill). */
export interface BillSource {
  readonly name: string;
  downloadBill?(billDate: BillDate): Promise<BillLine[]>;
}

/** China's hour from which the previous day's bills are asked for. */
export const BILL_READY_HOUR = 10;
/** Days looked back at each tick (a day missed while the app was down is caught up). */
export const CATCH_UP_DAYS = 3;
/** A run left 'running' this long was abandoned (an instance stopped mid-run). */
const RUN_LEASE_MS = 30 * 60_000;
const NOTE_MIN = 2;
const NOTE_MAX = 500;

const PROVIDER_LABELS: Record<string, string> = { sandbox: '沙箱', wechatpay: '微信支付', alipay: '支付宝' };
export const providerLabel = (name: string): string => PROVIDER_LABELS[name] ?? name;
const RUN_STATUS_LABELS = { running: '对账中', done: '已完成', failed: '失败（稍后重试）' } as const;

export interface ReconciliationDeps {
  providers: () => readonly BillSource[];
  now: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  operators: OperatorDirectory;
  /** The app's /metrics registry (none: no metrics, as in some tests). */
  registry?: Registry;
}

export interface RunOutcome {
  provider: string;
  bill_date: BillDate;
  bill_lines: number;
  differences: Difference[];
}

export function createReconciliationService(db: Kysely<Database>, deps: ReconciliationDeps) {
  const records = createReconciliationRecords(db);
  const { now, log } = deps;

  const differencesFound = deps.registry
    ? new Counter({
        name: 'payment_reconciliation_differences_total',
        help: 'Differences the daily reconciliation found between a provider bill and our payments and refunds',
        labelNames: ['provider', 'kind'] as const,
        registers: [deps.registry],
      })
    : null;
  if (deps.registry)
    new Gauge({
      name: 'payment_reconciliation_open_differences',
      help: 'Reconciliation differences no supervisor has explained yet',
      registers: [deps.registry],
      async collect() {
        try {
          this.set(await Promise.race([records.openCount(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref())]));
        } catch (error) {
          log.warn({ err: error }, 'reconciliation gauge not read');
        }
      },
    });

  /** One provider's bill of one day against our books; null when another instance has it or it is done. */
  async function runDay(provider: BillSource, billDate: BillDate): Promise<RunOutcome | null> {
    if (!provider.downloadBill) return null;
    const at = now();
    const run = await records.claimRun(provider.name, billDate, at, at - RUN_LEASE_MS);
    if (!run) return null;
    let lines: BillLine[];
    let differences: Difference[];
    try {
      lines = await provider.downloadBill(billDate);
      const ours = await records.movements(provider.name, chinaDayRange(billDate));
      differences = await compareBill(lines, ours, (line) => records.find(provider.name, line));
      for (const difference of differences) if (difference.user_order_id === null) difference.user_order_id = await records.orderOf(difference.out_trade_no);
      await records.finishRun(run, { billLines: lines.length, differences }, now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await records.failRun(run, message);
      log.warn({ err: error, provider: provider.name, billDate }, 'reconciliation run failed, will retry');
      return null;
    }
    for (const difference of differences) differencesFound?.inc({ provider: provider.name, kind: difference.kind });
    if (differences.length > 0) {
      log.warn({ provider: provider.name, billDate, differences: differences.length }, 'reconciliation found differences');
      await records
        .notifySupervisors(
          {
            title: '对账发现差异',
            body: `${providerLabel(provider.name)} ${billDate} 的对账单与系统记录有 ${differences.length} 处差异，请核对并标记说明。`,
            link: '/admin/reconciliation',
          },
          now(),
        )
        .catch((error: unknown) => log.error({ err: error }, 'reconciliation notice not written'));
    } else {
      log.info({ provider: provider.name, billDate, lines: lines.length }, 'reconciliation: bill matches');
    }
    return { provider: provider.name, bill_date: billDate, bill_lines: lines.length, differences };
  }

  function view(row: DifferenceRow, names: ReadonlyMap<number, string>): ReconciliationDifferenceView {
    return {
      difference_id: row.difference_id,
      provider: row.provider,
      provider_label: providerLabel(row.provider),
      bill_date: row.bill_date,
      kind: row.kind,
      kind_label: RECONCILIATION_KINDS[row.kind],
      line_kind: row.line_kind,
      line_kind_label: row.line_kind === 'payment' ? '支付' : '退款',
      out_trade_no: row.out_trade_no,
      out_refund_no: row.out_refund_no,
      provider_trade_no: row.provider_trade_no,
      user_order_id: row.user_order_id,
      our_amount: row.our_amount,
      their_amount: row.their_amount,
      happened_at: row.happened_at,
      created_at: row.created_at,
      explained: row.explained_at !== null,
      explained_by: row.explained_by === null ? null : (names.get(row.explained_by) ?? `#${row.explained_by}`),
      explained_at: row.explained_at,
      explanation: row.explanation,
    };
  }

  function explainers(rows: readonly DifferenceRow[]): Promise<Map<number, string>> {
    return deps.operators.names(rows.flatMap((row) => (row.explained_by === null ? [] : [row.explained_by])));
  }

  return {
    runDay,

    /** The job's run: every provider's bills of the last days not reconciled yet, once they are out. */
    async runDue(): Promise<RunOutcome[]> {
      const at = now();
      const chinaHour = new Date(at + 8 * 3_600_000).getUTCHours();
      const outcomes: RunOutcome[] = [];
      for (let back = 0; back < CATCH_UP_DAYS; back += 1) {
        // Today's bills are not out before BILL_READY_HOUR: yesterday's is skipped until then.
        if (back === 0 && chinaHour < BILL_READY_HOUR) continue;
        const billDate = previousChinaDay(at - back * 86_400_000);
        for (const provider of deps.providers()) {
          const outcome = await runDay(provider, billDate);
          if (outcome) outcomes.push(outcome);
        }
      }
      return outcomes;
    },

    async list(caller: Operator, input: { status: 'open' | 'all'; page: number }): Promise<ReconciliationListResult> {
      const { rows, total, open } = await records.list({
        open: input.status === 'open',
        limit: RECONCILIATION_PAGE_SIZE,
        offset: (input.page - 1) * RECONCILIATION_PAGE_SIZE,
      });
      const names = await explainers(rows);
      const runs = await records.recentRuns(previousChinaDay(now() - 6 * 86_400_000));
      return {
        page_data: rows.map((row) => view(row, names)),
        total_count: total,
        open_count: open,
        runs: runs.map((run) => ({
          provider: run.provider,
          provider_label: providerLabel(run.provider),
          bill_date: run.bill_date,
          status: run.status,
          status_label: RUN_STATUS_LABELS[run.status],
          bill_lines: run.bill_lines,
          differences: run.differences,
          finished_at: run.finished_at,
        })),
        can_explain: caller.role === 'supervisor',
      };
    },

    /** A supervisor marks a difference explained, with a note; once (2283 after that). */
    async explain(caller: Operator, input: { difference_id: number; note: string }): Promise<ReconciliationDifferenceView> {
      if (caller.role !== 'supervisor') throw new AppError(ErrorCode.RECONCILIATION_SUPERVISOR_ONLY);
      const note = input.note.trim();
      if ([...note].length < NOTE_MIN || [...note].length > NOTE_MAX) throw new AppError(ErrorCode.RECONCILIATION_NOTE_INVALID);
      const row = await records.byId(input.difference_id);
      if (!row) throw new AppError(ErrorCode.RECONCILIATION_DIFFERENCE_NOT_FOUND);
      if (!(await records.explain(row.difference_id, caller.operatorId, note, now()))) throw new AppError(ErrorCode.RECONCILIATION_ALREADY_EXPLAINED);
      const explained = (await records.byId(row.difference_id))!;
      return view(explained, await explainers([explained]));
    },
  };
}

export type ReconciliationService = ReturnType<typeof createReconciliationService>;
