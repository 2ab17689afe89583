// Liveness and readiness probes (issue 23, "Operations"), for a load balancer,
// an orchestrator or a monitoring check:
//   GET /healthz — the process runs and its event loop answers: always 200,
//     nothing else is asked (a failing database must not get the process
//     restarted, only taken out of rotation).
//   GET /readyz — this instance can serve: the database answers, every
//     migration this code knows is applied, the upload storage is writable and
//     Redis (when REDIS_URL is set) answers a PING. 503 naming each failed
//     check otherwise, and 503 {"status":"draining"} once app.startDraining()
//     was called (SIGTERM in main.ts: the balancer stops sending new requests
//     while the ones in flight finish; every other route keeps answering).
// Each check has its own short timeout, so a hung dependency answers 503
// instead of hanging the probe. The answers name checks, never an error's text
// (which could hold a host or a path); a change of state is logged once, with
// the reasons, instead of every probe being logged.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DatabaseHandle } from '../db/database.ts';
import { missingMigrations } from '../db/migrate.ts';

export const CHECK_TIMEOUT_MS = 1_500;

/** 'ok', or a short reason that names no host, path or secret. */
export type CheckResult = string;

export interface ReadinessOptions {
  database: Pick<DatabaseHandle, 'db' | 'kind' | 'schema'>;
  /** The local upload folder (UPLOAD_DIR), or 's3' when S3_BUCKET is set. */
  uploads: { kind: 'local'; dir: string } | { kind: 's3' };
  /** Present when REDIS_URL is set: a PING on the connection the app already holds. */
  redisPing?: () => Promise<void>;
  timeoutMs?: number;
}

class CheckTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Local disk: the folder uploads are written to must be a writable directory.
 * It is made on the first upload (storage-local.ts mkdirs), so on a fresh
 * install the nearest folder that exists must be writable instead. An access()
 * per probe, never a file written.
 */
export async function checkUploadDir(dir: string): Promise<void> {
  let at = resolve(dir);
  for (;;) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (found) {
      if (!found.isDirectory()) throw new Error(`${at} is not a directory`);
      await access(at, constants.W_OK | constants.X_OK);
      return;
    }
    const parent = dirname(at);
    if (parent === at) throw new Error('no existing folder on the upload path');
    at = parent;
  }
}

export function createReadinessCheck(options: ReadinessOptions) {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const { database } = options;
  const checks: Record<string, () => Promise<CheckResult>> = {
    database: async () => {
      await sql`select 1`.execute(database.db);
      return 'ok';
    },
    // One select of the migrator's bookkeeping each time (no cache: it is a few rows).
    migrations: async () => {
      const missing = await missingMigrations({ db: database.db, schema: database.kind === 'postgres' ? database.schema : undefined });
      return missing.length === 0 ? 'ok' : `missing ${missing.length}: ${missing.join(', ')}`;
    },
    uploads: async () => {
      // S3 is not probed: a request to the bucket per probe costs money and
      // rate limit, and a bucket refusing writes shows in the uploads' own
      // errors. Readiness reports the local disk only.
      if (options.uploads.kind === 's3') return 'skipped (s3)';
      await checkUploadDir(options.uploads.dir);
      return 'ok';
    },
  };
  const { redisPing } = options;
  if (redisPing) {
    checks.redis = async () => {
      await redisPing();
      return 'ok';
    };
  }

  /** Runs every check at once; `errors` holds the failures' messages, for the log only. */
  return async function check(): Promise<{ ready: boolean; checks: Record<string, CheckResult>; errors: Record<string, string> }> {
    const names = Object.keys(checks);
    const settled = await Promise.allSettled(names.map((name) => withTimeout(checks[name]!(), timeoutMs)));
    const results: Record<string, CheckResult> = {};
    const errors: Record<string, string> = {};
    let ready = true;
    settled.forEach((outcome, i) => {
      const name = names[i]!;
      if (outcome.status === 'fulfilled') {
        results[name] = outcome.value;
        if (outcome.value !== 'ok' && !outcome.value.startsWith('skipped')) ready = false;
      } else {
        ready = false;
        results[name] = outcome.reason instanceof CheckTimeout ? 'timeout' : 'unavailable';
        errors[name] = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      }
    });
    // The migrations check needs the database: when that is down, say so once.
    if (results.database !== 'ok' && results.migrations !== 'ok') results.migrations = 'unknown (database)';
    return { ready, checks: results, errors };
  };
}

export type ReadinessCheck = ReturnType<typeof createReadinessCheck>;

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

/**
 * Registers /healthz and /readyz (outside /www: not signed; hidden from the
 * API reference; not logged per request) and decorates app.startDraining().
 */
export function installHealth(app: FastifyInstance, options: ReadinessOptions): void {
  const check = createReadinessCheck(options);
  let draining = false;
  let lastReady: boolean | undefined;
  app.decorate('startDraining', () => {
    if (!draining) app.log.info('draining: /readyz answers 503 from now on');
    draining = true;
  });

  const probe = { logLevel: 'silent', schema: { hide: true } } as const;
  app.get('/healthz', probe, async (_request, reply) => noStore(reply).send({ status: 'ok' }));
  app.get('/readyz', probe, async (_request, reply) => {
    if (draining) return noStore(reply).code(503).send({ status: 'draining' });
    const { ready, checks, errors } = await check();
    if (ready !== lastReady) {
      if (ready) app.log.info({ checks }, 'readiness: ready');
      else app.log.warn({ checks, errors }, 'readiness: not ready');
      lastReady = ready;
    }
    return noStore(reply)
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ok' : 'unavailable', checks });
  });
}
