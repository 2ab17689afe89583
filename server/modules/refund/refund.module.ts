// Wires the refund module into the app: the refund notification endpoint of
// the payment provider, the /admin-api operations, and the worker that gives
// refunds to the provider after their commit (poked, and swept on every
// instance: claims are leases, so several instances are safe).
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { PaymentProvider } from '../payment/provider.ts';
import type { OperatorDirectory } from '../review/operators.ts';
import { createRefundWorker, type RefundWorker } from './refund-worker.ts';
import { refundOperations, registerRefundNotifyRoute } from './refund.routes.ts';
import { createRefundService, type RefundService } from './refund.service.ts';

export interface Refunds {
  service: RefundService;
  worker: RefundWorker;
  /** Stops this instance's worker (tests that run workers of their own). */
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
  options: { db: Kysely<Database>; now: () => number; provider: PaymentProvider; operators: OperatorDirectory },
): Promise<Refunds> {
  const { db, now, provider } = options;
  const service = createRefundService(db, { now, provider, operators: options.operators, log: app.log });
  await registerRefundNotifyRoute(app, provider.name, service);
  const worker = createRefundWorker({ db, provider, now, log: app.log });
  let stop: (() => Promise<void>) | null = worker.start();
  const stopWorker = async () => {
    const stopping = stop;
    stop = null;
    await stopping?.();
  };
  app.addHook('onClose', stopWorker);
  const refunds: Refunds = { service, worker, stopWorker, operations: refundOperations(service) };
  app.decorate('refunds', refunds);
  return refunds;
}
