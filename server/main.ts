// The only file that opens a port: config → start-up checks → build → database
// → migrations → seed → listen; and the graceful stop on SIGTERM / SIGINT.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ServerBuild } from 'react-router';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedOnStart } from './db/seed/on-start.ts';
import { claimServedBuild, DEFAULT_BUILD_LINK } from './platform/builds.ts';
import { startupChecks } from './platform/startup-checks.ts';

/** After the drain, how long the HTTP close, the workers' last ticks and the database close may take before the process gives up. */
const STOP_TIMEOUT_MS = 30_000;
/**
 * Signals this close to the first are the same stop arriving twice: Ctrl-C
 * reaches the server from the terminal and again through npm, which passes
 * SIGINT and SIGTERM on to its script. Only a later one means "now".
 */
const SAME_SIGNAL_WINDOW_MS = 1_000;

/** One line on stderr and exit 1: the start cannot go on (no stack trace, the line says what to fix). */
function refuse(lines: string | string[]): never {
  for (const line of Array.isArray(lines) ? lines : [lines]) console.error(line);
  process.exit(1);
}

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) refuse(error.message);
    throw error;
  }

  // What the server writes to and reaches, before anything is opened (issue 23).
  const problems = await startupChecks(config);
  if (problems.length > 0) refuse(problems);

  // `build` is a symlink to builds/<id> (scripts/build.ts): resolved once, that folder is served
  // for the whole life of the process, whatever later builds switch the link to (decision 0031).
  const buildLink = process.env.BUILD_DIR ?? DEFAULT_BUILD_LINK;
  const served = claimServedBuild(buildLink);
  if (!served || !existsSync(join(served.dir, 'server/index.js'))) {
    served?.release();
    refuse(`BUILD_DIR: ${buildLink}/server/index.js is missing: run "npm run build" first (or "npm start").`);
  }
  process.on('exit', () => served.release());

  const database = openDatabase(config.database);
  const applied = await migrateToLatest(database);

  const build = (await import(pathToFileURL(resolve(served.dir, 'server/index.js')).href)) as ServerBuild;
  const { app, services } = await buildApp({ config, database, pages: { build, clientDir: join(served.dir, 'client') } });
  app.log.info({ applied, database: database.kind, build: served.dir }, 'migrations applied');

  const stopping = installGracefulStop(app, database, config.SHUTDOWN_DRAIN_MS);

  await seedOnStart({ config, database, services, log: app.log });

  // Stopped while migrating or seeding: the stop goes on, nothing is opened.
  if (stopping()) return;
  await app.listen({ host: config.HOST, port: config.PORT });
  const address = app.server.address();
  app.log.info({ port: typeof address === 'object' && address ? address.port : config.PORT }, 'ready');
}

/** The connection closes once this answer is sent: `Connection: close`, or ended after the answer if its headers are out already. */
function closeAfter(request: IncomingMessage, response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('connection', 'close');
  else response.once('finish', () => request.socket.end());
}

/**
 * SIGTERM or SIGINT:
 *   1. /readyz answers 503 at once (app.startDraining) and the server goes on
 *      serving for drainMs (SHUTDOWN_DRAIN_MS), the time a load balancer takes
 *      to see it and send new requests elsewhere. Every answer from the signal on says `Connection: close`, so keep-alive
 *      clients come back on a new connection (to another instance);
 *   2. app.close(): no new connection is accepted, idle keep-alive sockets are
 *      closed (Node's server.close does that; Fastify's default
 *      forceCloseConnections 'idle'), requests in flight finish; then the
 *      onClose hook stops the job runner (server/platform/jobs.ts), which
 *      starts no run from then on and waits for the runs under way;
 *   3. the database is closed and the process exits 0.
 * A second signal (not the same one fanned out, see SAME_SIGNAL_WINDOW_MS)
 * exits at once; a stop that takes more than drainMs + STOP_TIMEOUT_MS exits 1,
 * logging what it was waiting for.
 */
function installGracefulStop(app: FastifyInstance, database: DatabaseHandle, drainMs: number): () => boolean {
  let firstAt: number | null = null;
  // The requests in flight: told to close their connection once stopping, and named by the hard timeout's log line.
  const inFlight = new Map<IncomingMessage, { response: ServerResponse; since: number }>();
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    inFlight.set(request, { response, since: Date.now() });
    response.once('close', () => inFlight.delete(request));
    if (firstAt !== null) closeAfter(request, response);
  });
  let stage = 'draining';
  const stillOpen = () =>
    [...inFlight].map(([request, { since }]) => `${request.method} ${request.url?.split('?')[0]} (${Math.round((Date.now() - since) / 1000)} s)`);

  const stop = async (signal: NodeJS.Signals) => {
    app.log.info({ signal, drainMs }, `stopping: /readyz answers 503, serving on for ${drainMs} ms (SHUTDOWN_DRAIN_MS); a second signal stops at once`);
    const hard = setTimeout(() => {
      app.log.error(
        // The background jobs still in a run (server/platform/jobs.ts): app.close() waits for them.
        { stage, requestsInFlight: stillOpen(), jobsRunning: app.jobs.states().flatMap((job) => (job.running ? [job.name] : [])) },
        `stop did not finish within ${drainMs + STOP_TIMEOUT_MS} ms (drain + ${STOP_TIMEOUT_MS} ms), stuck ${stage}: exiting 1`,
      );
      process.exit(1);
    }, drainMs + STOP_TIMEOUT_MS);
    hard.unref();
    // Keep-alive connections (a proxy's, a browser's) end with the answer they are waiting for or
    // the next one: their clients reconnect elsewhere, and a connection that turned idle after
    // server.close() had closed the idle ones cannot hold the close up until its keep-alive timeout.
    for (const [request, { response }] of inFlight) closeAfter(request, response);
    try {
      app.startDraining();
      // Nobody to tell before the server listens (a stop during the seeding).
      if (app.server.listening) await new Promise((done) => setTimeout(done, drainMs));
      stage = 'closing the HTTP server (requests in flight) and stopping the background workers (their current tick)';
      await app.close();
      stage = 'closing the database';
      await database.destroy();
      app.log.info({ signal }, 'stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error, stage }, 'stop failed: exiting 1');
      process.exit(1);
    }
  };

  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (firstAt === null) {
      firstAt = now;
      void stop(signal);
    } else if (now - firstAt >= SAME_SIGNAL_WINDOW_MS) {
      app.log.warn({ signal, stage, requestsInFlight: stillOpen() }, 'second signal: exiting now');
      process.exit(1);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => firstAt !== null;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
