// Wires the daily reconciliation into the app: its job in the app's runner
// (server/platform/jobs.ts, decision 0034) over every configured payment
// provider, its metrics in the /metrics registry, and the back office's calls
// (/admin-api/reconciliation/…: operators read, supervisors explain).
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import type { FastifyBaseLogger } from 'fastify';
import { adminReconciliationExplain, adminReconciliationList } from '../../../common/contracts/reconciliation.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { OperatorDirectory } from '../operator/directory.ts';
import { type BillSource, createReconciliationService, type ReconciliationService } from './reconciliation.service.ts';

export const RECONCILIATION_JOB = 'payment-bill-reconcile';
/** The bills are looked for every half hour (a day's run happens once; a failed download is retried at the next tick). */
export const RECONCILIATION_INTERVAL_MS = 30 * 60_000;

const TAG = '后台 · 对账';

export function reconciliationOperations(service: ReconciliationService) {
  return [
    defineOperation({
      ...adminReconciliationList,
      tag: TAG,
      summary: '对账差异：每日对账单与系统支付、退款记录的差异，以及最近的对账',
      description:
        '每天北京时间 10 点后，系统下载各支付服务商前一天的对账单，与系统的支付和退款记录逐笔比对：' +
        '账单有而我方无、我方有而账单无、双方金额不一致，都记为一条差异。',
      auth: 'operator',
      errors: [],
      handle: (payload, { caller }) => service.list(caller, payload),
    }),
    defineOperation({
      ...adminReconciliationExplain,
      tag: TAG,
      summary: '标记差异已说明（主管）：填写说明，记录操作人和时间',
      auth: 'operator',
      errors: [
        ErrorCode.RECONCILIATION_SUPERVISOR_ONLY,
        ErrorCode.RECONCILIATION_NOTE_INVALID,
        ErrorCode.RECONCILIATION_DIFFERENCE_NOT_FOUND,
        ErrorCode.RECONCILIATION_ALREADY_EXPLAINED,
      ],
      handle: (payload, { caller }) => service.explain(caller, payload),
    }),
  ];
}

export function installReconciliation(options: {
  db: Kysely<Database>;
  now: () => number;
  log: FastifyBaseLogger;
  jobs: JobRunner;
  providers: () => readonly BillSource[];
  operators: OperatorDirectory;
  registry: Registry;
}) {
  const service = createReconciliationService(options.db, {
    providers: options.providers,
    now: options.now,
    log: options.log,
    operators: options.operators,
    registry: options.registry,
  });
  // Every instance ticks; a day's run is claimed by one of them (a unique row per provider and day).
  options.jobs.register({ name: RECONCILIATION_JOB, intervalMs: RECONCILIATION_INTERVAL_MS, run: () => service.runDue(), leaseMs: 30 * 60_000 });
  return { service, operations: reconciliationOperations(service) };
}
