// Prometheus metrics at GET /metrics (issue 23, "Operations"), with prom-client.
//
// Two registries, merged into the one /metrics serves:
//   - the process's (one per process, made on first use): prom-client's default
//     metrics — CPU, memory, event-loop lag (nodejs_eventloop_lag_seconds …),
//     GC. collectDefaultMetrics starts an event-loop delay histogram and a GC
//     observer each time it is called and never stops them, so it is called
//     once, not once per app (tests build dozens of apps in one process);
//     they describe the process anyway, whichever app serves them.
//   - the app's own: HTTP requests, and gauges read from the database at scrape
//     time (collect()), so they are as fresh as the scrape and cost nothing in
//     between. Each is one cheap, indexed query with a timeout; a failing one
//     is logged and its value left out, and /metrics still answers.
//
// Who may read it: a loopback connection that no proxy forwarded (nginx on the
// same host connects from loopback too, so a forwarding header means "from
// outside"), or anyone with `Authorization: Bearer <METRICS_TOKEN>`. Anyone
// else gets the app's ordinary 404, as for a path that does not exist.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { countRefundsToRedo } from '../modules/refund/failed-refunds.ts';

/** A scrape's database query gets this long; Prometheus's own scrape timeout is 10 s by default. */
const QUERY_TIMEOUT_MS = 2_000;

/** Operators' login_throttle keys start with this (login-throttle.ts: `<side>:<kind>:<subject>`). */
const OPERATOR_THROTTLE_KEY_PREFIX = 'operator:';

/** Refund rows the refund worker still has to send (pending) or to settle (processing): refund-worker.ts claims these. */
const REFUND_WORKER_STATUSES = ['pending', 'processing'] as const;

/** Routes left out of the HTTP metrics (/metrics also when it answers 404). */
const UNMEASURED_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

let processRegistry: Registry | undefined;

/** The process-wide default metrics, collected once. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface MetricsOptions {
  database: Pick<DatabaseHandle, 'db' | 'pool'>;
  now: () => number;
  /** METRICS_TOKEN: a caller presenting it as a bearer token may scrape from anywhere. */
  token?: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** Headers a reverse proxy adds: such a request came from outside, whatever socket it arrived on. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

const digest = (value: string) => createHash('sha256').update(value).digest();

/** May this request read the metrics? Exported for the tests. */
export function metricsAllowed(request: Pick<FastifyRequest, 'headers' | 'socket'>, token: string | undefined): boolean {
  const authorization = request.headers.authorization;
  if (token && typeof authorization === 'string' && authorization.startsWith('Bearer ')) {
    // Digests of both: equal lengths, so the comparison takes the same time whatever was sent.
    if (timingSafeEqual(digest(authorization.slice('Bearer '.length)), digest(token))) return true;
  }
  const address = request.socket.remoteAddress;
  return address !== undefined && LOOPBACK.has(address) && FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Installs the HTTP metrics hook and GET /metrics. Call it before the routes
 * it should measure are registered (a hook added later misses plugins already
 * registered).
 */
export function installMetrics(app: FastifyInstance, options: MetricsOptions): { registry: Registry } {
  const { database, now } = options;
  const db: Kysely<Database> = database.db;
  const own = new Registry();
  const registers = [own];

  // ── HTTP ─────────────────────────────────────────────────────────────────
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern.', labelNames, registers });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by route pattern.',
    labelNames,
    registers,
  });
  /** The probes and /metrics itself: asked every few seconds, they would drown the rest. */
  const unmeasured = new WeakSet<FastifyRequest>();
  app.addHook('onResponse', async (request, reply) => {
    if (unmeasured.has(request) || UNMEASURED_ROUTES.has(request.routeOptions.url ?? '')) return;
    // The route's pattern (/www/order_detail, /order/detail/:id), never the URL: the label set stays bounded.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'not_found', status_code: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  // ── Database-backed gauges, read at scrape time ─────────────────────────
  /** A gauge without labels set from one query; on failure it shows no sample rather than a false 0. */
  const scalar = (name: string, help: string, read: () => Promise<number>) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        try {
          this.set(await withTimeout(read(), QUERY_TIMEOUT_MS));
        } catch (error) {
          this.remove();
          app.log.warn({ err: error, metric: name }, 'metrics: a gauge could not be read');
        }
      },
    });

  const pool = database.pool;
  // SQLite has one connection and no pool: the pool gauges exist on PostgreSQL only.
  if (pool) {
    new Gauge({
      name: 'db_pool_connections_in_use',
      help: 'PostgreSQL pool connections checked out by a query or transaction.',
      registers,
      collect() {
        this.set(pool.totalCount - pool.idleCount);
      },
    });
    new Gauge({
      name: 'db_pool_connections_waiting',
      help: 'Queries waiting for a PostgreSQL pool connection (the pool is exhausted).',
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  // notice_email_due_idx (status, next_attempt_at) serves both.
  scalar('notice_outbox_pending', 'Notice e-mails not yet sent (pending, including those waiting to retry).', async () => {
    const row = await db
      .selectFrom('notice_email')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  });
  scalar('notice_outbox_oldest_pending_age_seconds', 'Age of the oldest notice e-mail not yet sent (0 when none).', async () => {
    const row = await db
      .selectFrom('notice_email')
      .select((eb) => eb.fn.min<number | null>('created_at').as('oldest'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return row.oldest == null ? 0 : Math.max(0, (now() - Number(row.oldest)) / 1000);
  });
  // refund_due_idx (status, next_attempt_at).
  scalar('refund_worker_backlog', 'Refunds the refund worker has yet to send (pending) or to settle (processing).', async () => {
    const row = await db
      .selectFrom('refund')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', REFUND_WORKER_STATUSES)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  });
  scalar('refunds_failed', 'Failed refunds still to redo (the 工作台 alert, decision 0026).', async () => (await countRefundsToRedo(db)).refund_count);

  new Gauge({
    name: 'login_lockouts',
    help: 'Login throttle keys locked now (an account, an address, or both), by side.',
    labelNames: ['side'],
    registers,
    async collect() {
      try {
        // login_throttle holds the keys of the last windows only (minutes): a scan is cheap.
        const row = await withTimeout(
          db
            .selectFrom('login_throttle')
            .select((eb) => [
              eb.fn.countAll<number>().as('total'),
              eb.fn.sum<number | null>(eb.case().when('throttle_key', 'like', `${OPERATOR_THROTTLE_KEY_PREFIX}%`).then(1).else(0).end()).as('operator'),
            ])
            .where('locked_until', '>', now())
            .executeTakeFirstOrThrow(),
          QUERY_TIMEOUT_MS,
        );
        const operator = Number(row.operator ?? 0);
        this.set({ side: 'operator' }, operator);
        this.set({ side: 'customer' }, Number(row.total) - operator);
      } catch (error) {
        this.reset();
        app.log.warn({ err: error, metric: 'login_lockouts' }, 'metrics: a gauge could not be read');
      }
    },
  });

  const registry = Registry.merge([processMetrics(), own]);

  app.get('/metrics', { logLevel: 'silent', schema: { hide: true } }, async (request, reply) => {
    unmeasured.add(request);
    if (!metricsAllowed(request, options.token)) return reply.callNotFound();
    const text = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });

  return { registry };
}
