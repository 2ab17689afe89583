// Wires the payment module into the app: the providers the channels name
// (PAYMENT_WECHAT_PROVIDER / PAYMENT_ALIPAY_PROVIDER, the sandbox by default,
// with its pages), one notification endpoint per provider, the /www
// operations and the reconciliation sweep (a job of the app's runner,
// server/platform/jobs.ts). app.ts calls installPayments once and spreads
// `operations` into the signed API; the refund module gets `providers`.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.ts';
import { paymentSandboxChannels } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import { createPaymentRepository } from './payment.repository.ts';
import { paymentOperations, registerNotifyRoute } from './payment.routes.ts';
import { createPaymentService, type PaymentService } from './payment.service.ts';
import { createConfiguredProviders } from './provider-factories.ts';
import { createProviderRegistry, type PaymentProviders } from './registry.ts';
import { createSandboxProvider, type SandboxProvider } from './sandbox-provider.ts';
import { registerSandboxRoutes } from './sandbox.routes.ts';

/** How often expired pending payments are settled with the provider (lost notifications). */
export const RECONCILE_INTERVAL_MS = 60_000;
export const RECONCILE_JOB = 'payment-reconcile';

export interface Payments {
  service: PaymentService;
  /** Every configured provider: new trades by channel, the rest by payment.provider. */
  providers: PaymentProviders;
  /** The sandbox provider (tests reach its ledger and its outgoing "network"); its routes exist only when a channel uses it. */
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
  const sandbox = createSandboxProvider({
    db,
    secret: config.PAYMENT_SANDBOX_SECRET,
    siteUrl: config.PUBLIC_SITE_URL,
    notifyDelayMs: config.PAYMENT_SANDBOX_NOTIFY_DELAY_MS,
    now,
    log: app.log,
  });
  const sandboxChannels = paymentSandboxChannels(config);
  if (config.APP_ENV === 'prod' && sandboxChannels.length > 0)
    app.log.warn(
      { settings: sandboxChannels },
      'payment sandbox in production (PAYMENT_SANDBOX_IN_PROD): orders can be "paid" on the sandbox page without money',
    );
  const configured = createConfiguredProviders({ config, db, now, log: app.log, sandbox });
  const providers = createProviderRegistry(configured.providers, configured.channels);
  const service = createPaymentService(db, { providers, siteUrl: config.PUBLIC_SITE_URL, now, log: app.log });

  if (providers.byName(sandbox.provider.name)) await registerSandboxRoutes(app, sandbox, now);
  for (const provider of providers.all()) await registerNotifyRoute(app, provider, service);

  // Every instance sweeps; settling is idempotent and closing conditional. The runner stops the sweep on close (app.ts).
  const repo = createPaymentRepository(db);
  options.jobs.register({
    name: RECONCILE_JOB,
    intervalMs: RECONCILE_INTERVAL_MS,
    run: () => service.reconcileDue(),
    backlog: () => repo.countDuePending(now()),
  });
  // The sandbox's notifications (and any other provider's work) under way finish first (graceful stop).
  app.addHook('onClose', async () => {
    await sandbox.close();
    for (const provider of providers.all()) if (provider !== sandbox.provider) await provider.close?.();
  });

  const payments: Payments = { service, providers, sandbox, operations: paymentOperations(service) };
  app.decorate('payments', payments);
  return payments;
}
