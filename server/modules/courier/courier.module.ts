// Wires the courier module into the app: the provider COURIER_PROVIDER names
// (the sandbox, which pushes from this process, or SF Express's open
// platform, decision 0039), the push endpoint of that provider, and the sweep that asks the provider about quiet parcels and
// re-tells statuses whose announcement was cut short (a job of the app's
// runner, server/platform/jobs.ts). app.ts calls
// installCourier once; the order side reaches the service as app.courier.service.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import { ANNOUNCE_LEASE_MS } from './announcer.ts';
import { createCourierRepository } from './courier.repository.ts';
import { registerPushRoute } from './courier.routes.ts';
import { createCourierService, type CourierService } from './courier.service.ts';
import type { CourierProvider } from './provider.ts';
import { createSandboxCourier, type SandboxCourier } from './sandbox-provider.ts';
import { createSfApi } from './sf-api.ts';
import { createSfCourier } from './sf-provider.ts';

/** How often quiet parcels are looked up and unannounced statuses told again. */
export const COURIER_SWEEP_INTERVAL_MS = 60_000;
export const COURIER_SWEEP_JOB = 'courier-sweep';

export interface Courier {
  service: CourierService;
  /**
   * The sandbox provider (tests reach its ledger, its pusher and its outgoing "network").
   * Built whatever COURIER_PROVIDER says, but it only pushes when it is the provider.
   */
  sandbox: SandboxCourier;
  /** The provider in use (COURIER_PROVIDER). */
  provider: CourierProvider;
}

declare module 'fastify' {
  interface FastifyInstance {
    courier: Courier;
  }
}

export async function installCourier(
  app: FastifyInstance,
  options: { config: AppConfig; db: Kysely<Database>; now: () => number; jobs: JobRunner },
): Promise<Courier> {
  const { config, db, now } = options;
  const sandbox = createSandboxCourier({
    db,
    partnerId: config.COURIER_SANDBOX_PARTNER_ID,
    checkWord: config.COURIER_SANDBOX_CHECK_WORD,
    siteUrl: config.PUBLIC_SITE_URL,
    stepMs: config.COURIER_SANDBOX_STEP_MS,
    duplicateRate: config.COURIER_SANDBOX_DUPLICATE_RATE,
    now,
    log: app.log,
  });
  const sandboxInUse = config.COURIER_PROVIDER === 'sandbox';
  let provider: CourierProvider = sandbox.provider;
  if (config.COURIER_PROVIDER === 'sf') {
    // loadConfig refuses 'sf' without these three.
    const account = { partnerId: config.SF_PARTNER_ID!, checkWord: config.SF_CHECK_WORD!, monthlyCard: config.SF_MONTHLY_CARD! };
    const api = createSfApi({ url: config.SF_API_URL, partnerId: account.partnerId, checkWord: account.checkWord, timeoutMs: config.SF_TIMEOUT_MS, now });
    provider = createSfCourier({ api, ...account, now, log: app.log });
  } else if (config.APP_ENV === 'prod') {
    app.log.warn('COURIER_PROVIDER=sandbox in production (COURIER_SANDBOX_IN_PROD): no courier is booked, parcels are tracked by the sandbox');
  }
  const service = createCourierService(db, {
    provider,
    now,
    log: app.log,
    queryAfterMs: config.COURIER_QUERY_AFTER_MS,
    attentionAfterMs: config.COURIER_ATTENTION_DAYS * 86_400_000,
  });

  await registerPushRoute(app, provider.name, service);

  // Every instance sweeps: each query and each announcement is claimed first. The runner stops the sweep on close (app.ts).
  const repo = createCourierRepository(db);
  options.jobs.register({
    name: COURIER_SWEEP_JOB,
    intervalMs: COURIER_SWEEP_INTERVAL_MS,
    async run() {
      await service.reconcileDue();
      await service.announceDue();
    },
    leaseMs: ANNOUNCE_LEASE_MS,
    // Statuses the order side has not been told yet (a delivered return parcel finishes the order).
    backlog: () => repo.countUnannounced(),
  });
  app.addHook('onReady', async () => {
    if (sandboxInUse) sandbox.start();
  });
  // The sandbox's pushes under way finish first (graceful stop).
  app.addHook('onClose', async () => sandbox.close());

  const courier: Courier = { service, sandbox, provider };
  app.decorate('courier', courier);
  return courier;
}
