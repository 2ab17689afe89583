// Wires the payment module into the app: the provider PAYMENT_PROVIDER names
// (only the sandbox so far, with its pages), the notification endpoint, the
// /www operations and the reconciliation sweep (a job of the app's runner,
// server/platform/jobs.ts). app.ts calls installPayments once and spreads
// `operations` into the signed API.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import { createPaymentRepository } from './payment.repository.ts';
import { paymentOperations, registerNotifyRoute } from './payment.routes.ts';
import { createPaymentService, type PaymentService } from './payment.service.ts';
import { createSandboxProvider, type SandboxProvider } from './sandbox-provider.ts';
import { registerSandboxRoutes } from './sandbox.routes.ts';

/** How often expired pending payments are settled with the provider (lost notifications). */
export const RECONCILE_INTERVAL_MS = 60_000;
export const RECONCILE_JOB = 'payment-reconcile';

export interface Payments {
  service: PaymentService;
  /** The sandbox provider (tests reach its ledger and its outgoing "network"). */
  sandbox: SandboxProvider;
  operations: ReturnType<typeof paymentOperations>;
}

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments;
  }
}

export async function installPayments(
  app: FastifyInstance,
  options: { config: AppConfig; db: Kysely<Database>; now: () => number; jobs: JobRunner },
): Promise<Payments> {
  const { config, db, now } = options;
  // PAYMENT_PROVIDER only accepts 'sandbox' for now (server/config.ts).
  const sandbox = createSandboxProvider({
    db,
    secret: config.PAYMENT_SANDBOX_SECRET,
    siteUrl: config.PUBLIC_SITE_URL,
    notifyDelayMs: config.PAYMENT_SANDBOX_NOTIFY_DELAY_MS,
    now,
    log: app.log,
  });
  if (config.APP_ENV === 'prod')
    app.log.warn('PAYMENT_PROVIDER=sandbox in production (PAYMENT_SANDBOX_IN_PROD): orders can be "paid" on the sandbox page without money');
  const service = createPaymentService(db, { provider: sandbox.provider, now, log: app.log });

  await registerSandboxRoutes(app, sandbox, now);
  await registerNotifyRoute(app, sandbox.provider.name, service);

  // Every instance sweeps; settling is idempotent and closing conditional. The runner stops the sweep on close (app.ts).
  const repo = createPaymentRepository(db);
  options.jobs.register({
    name: RECONCILE_JOB,
    intervalMs: RECONCILE_INTERVAL_MS,
    run: () => service.reconcileDue(),
    backlog: () => repo.countDuePending(now()),
  });
  // The sandbox's notifications under way finish first (graceful stop).
  app.addHook('onClose', async () => sandbox.close());

  const payments: Payments = { service, sandbox, operations: paymentOperations(service) };
  app.decorate('payments', payments);
  return payments;
}
