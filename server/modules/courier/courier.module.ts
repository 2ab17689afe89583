// Wires the courier module into the app: the provider COURIER_PROVIDER names
// (only the sandbox so far, which pushes from this process), the push
// endpoint, and the sweep that asks the provider about quiet parcels and
// re-tells statuses whose announcement was cut short. app.ts calls
// installCourier once; the order side reaches the service as app.courier.service.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { registerPushRoute } from './courier.routes.ts';
import { createCourierService, type CourierService } from './courier.service.ts';
import { createSandboxCourier, type SandboxCourier } from './sandbox-provider.ts';

/** How often quiet parcels are looked up and unannounced statuses told again. */
export const COURIER_SWEEP_INTERVAL_MS = 60_000;

export interface Courier {
  service: CourierService;
  /** The sandbox provider (tests reach its ledger, its pusher and its outgoing "network"). */
  sandbox: SandboxCourier;
}

declare module 'fastify' {
  interface FastifyInstance {
    courier: Courier;
  }
}

export async function installCourier(app: FastifyInstance, options: { config: AppConfig; db: Kysely<Database>; now: () => number }): Promise<Courier> {
  const { config, db, now } = options;
  // COURIER_PROVIDER only accepts 'sandbox' for now (server/config.ts).
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
  if (config.APP_ENV === 'prod')
    app.log.warn('COURIER_PROVIDER=sandbox in production (COURIER_SANDBOX_IN_PROD): no courier is booked, parcels are tracked by the sandbox');
  const service = createCourierService(db, { provider: sandbox.provider, now, log: app.log, queryAfterMs: config.COURIER_QUERY_AFTER_MS });

  await registerPushRoute(app, sandbox.provider.name, service);

  // Every instance sweeps: each query and each announcement is claimed first.
  let sweeping: Promise<void> | null = null;
  const sweep = setInterval(() => {
    if (sweeping) return;
    sweeping = (async () => {
      await service.reconcileDue();
      await service.announceDue();
    })()
      .catch((error: unknown) => app.log.warn({ err: error }, 'courier sweep failed'))
      .finally(() => {
        sweeping = null;
      });
  }, COURIER_SWEEP_INTERVAL_MS);
  sweep.unref();
  app.addHook('onReady', async () => sandbox.start());
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    // The sweep and the sandbox's pushes under way finish first (graceful stop).
    await Promise.all([sweeping, sandbox.close()]);
  });

  const courier: Courier = { service, sandbox };
  app.decorate('courier', courier);
  return courier;
}
