// Wires the refund module into the app: the refund notification endpoint of
// the payment provider, the /admin-api operations, and the worker that gives
// refunds to the provider after their commit (a job of the app's runner, run
// by the after-commit hook of the events that create refunds and swept on
// every instance: claims are leases, so several instances are safe).
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import type { PaymentProvider } from '../payment/provider.ts';
import type { OperatorDirectory } from '../operator/directory.ts';
import { createRefundWorker, installRefundWorker, REFUND_JOB, type RefundWorker } from './refund-worker.ts';
import { refundOperations, registerRefundNotifyRoute } from './refund.routes.ts';
import { createRefundService, type RefundService } from './refund.service.ts';

export interface Refunds {
  service: RefundService;
  worker: RefundWorker;
  /** Stops this instance's worker job for good (tests that run workers of their own). */
  stopWorker(): Promise<void>;
  operations: ReturnType<typeof refundOperations>;
}

declare module 'fastify' {
  interface FastifyInstance {
    refunds: Refunds;
  }
}

export async function installRefunds(
  app: FastifyInstance,
  options: { db: Kysely<Database>; now: () => number; provider: PaymentProvider; operators: OperatorDirectory; jobs: JobRunner },
): Promise<Refunds> {
  const { db, now, provider } = options;
  const service = createRefundService(db, { now, provider, operators: options.operators, log: app.log });
  await registerRefundNotifyRoute(app, provider.name, service);
  const worker = createRefundWorker({ db, provider, now, log: app.log });
  installRefundWorker(options.jobs, worker, db, app.log);
  // The runner stops every job on close (app.ts).
  const stopWorker = () => options.jobs.disable(REFUND_JOB);
  const refunds: Refunds = { service, worker, stopWorker, operations: refundOperations(service) };
  app.decorate('refunds', refunds);
  return refunds;
}
