// Wires the refund module into the app: the refund notification endpoint of
// the payment provider, the /admin-api operations, and the worker that gives
// refunds to the provider after their commit (a job of the app's runner, run
// by the after-commit hook of the events that create refunds and swept on
// every instance: claims are leases, so several instances are safe).
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import type { PaymentProviders } from '../payment/registry.ts';
import type { OperatorDirectory } from '../operator/directory.ts';
import { createRefundWorker, installRefundWorker, providerOfPayment, REFUND_JOB, type RefundWorker } from './refund-worker.ts';
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
  options: { db: Kysely<Database>; now: () => number; providers: PaymentProviders; operators: OperatorDirectory; jobs: JobRunner },
): Promise<Refunds> {
  const { db, now, providers } = options;
  const service = createRefundService(db, { now, operators: options.operators, log: app.log });
  // Each provider's refund notifications on its own path; the worker asks the provider each refund's payment was made with.
  for (const provider of providers.all()) await registerRefundNotifyRoute(app, provider, service);
  const worker = createRefundWorker({ db, provider: providerOfPayment(db, providers), now, log: app.log });
  installRefundWorker(options.jobs, worker, db, app.log);
  // The runner stops every job on close (app.ts).
  const stopWorker = () => options.jobs.disable(REFUND_JOB);
  const refunds: Refunds = { service, worker, stopWorker, operations: refundOperations(service) };
  app.decorate('refunds', refunds);
  return refunds;
}
