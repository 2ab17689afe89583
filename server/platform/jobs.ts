// The one runner of the app's background work (decision 0034): the notices'
// outbox, the refund worker, the payment and courier sweeps, the expiry of
// unpaid orders, retention, the purges of old request ids and rate-limit
// windows. Each is a registered job with its interval; app.ts builds the
// runner, starts it once the app is ready and stops it on close.
//
// - A job runs every `intervalMs` (0: only when poked), never twice at once in
//   this process. A tick that comes while it runs is dropped (the run under way
//   is that sweep).
// - `poke(name)` runs it soon (on the next turn of the event loop); pokes that
//   come during a run make one more run after it, however many there were.
//   Other modules do not poke a worker: they register after-commit hooks with
//   the order lifecycle (server/modules/order/after-commit.ts), which poke.
// - A run that throws is logged, counted, and retried after a backoff that
//   doubles with each failure in a row (1 s, 2 s, 4 s … up to the larger of
//   its interval and a minute); interval ticks wait for the retry, pokes do
//   not (they mean new work, and the work itself may be what failed before).
//   Nothing a job does can crash the process.
// - `stop()` clears every timer, lets no run start from then on, and resolves
//   once the runs under way have finished (the graceful stop, server/main.ts).
// - Several instances: each runs every job; the jobs' own claims (conditional
//   updates with a lease, FOR UPDATE SKIP LOCKED on PostgreSQL) keep two from
//   doing the same row. `leaseMs` is that lease: a run longer than it is
//   logged, since another instance may have taken its rows over meanwhile.
// - Metrics per job (the app's /metrics registry): job_runs_total{job,outcome},
//   job_last_run_timestamp_seconds, job_last_success_timestamp_seconds,
//   job_last_duration_seconds and, for a job with a backlog(), job_backlog,
//   read at scrape time.
import { Counter, Gauge, type Registry } from 'prom-client';

export interface JobSpec {
  /** Unique per runner; the `job` label of its metrics and the name in its log lines. */
  name: string;
  /** How often it runs; 0 = only when poked (or at start, see runAtStart). */
  intervalMs: number;
  /** One run: does what is due now. Its result is ignored; a throw is a failed run. */
  run: () => Promise<unknown>;
  /** How long the job's claims hold its rows (other instances wait that long); a run longer than this is logged. */
  leaseMs?: number;
  /** Wait before the retry after `failures` failed runs in a row (default: 1 s doubling, at most max(intervalMs, 60 s)). */
  backoff?: (failures: number) => number;
  /** Work waiting for the job (rows due, orders due…), read at each /metrics scrape. */
  backlog?: () => Promise<number>;
  /** Run once as soon as the runner starts (work left by a crash or a stop); otherwise the first run is one interval after. */
  runAtStart?: boolean;
}

export interface JobRunnerLog {
  info?(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface JobRunnerOptions {
  log: JobRunnerLog;
  /** Where the job metrics go (the app's /metrics registry); none: no metrics. */
  registers?: Registry[];
}

export type JobOutcome = 'ok' | 'error';

/** What a job is doing, for tests and the stop's log line. */
export interface JobState {
  name: string;
  intervalMs: number;
  running: boolean;
  /** A run is due soon (poked, or poked during the run under way). */
  pending: boolean;
  failures: number;
  runs: number;
  lastOutcome: JobOutcome | null;
  disabled: boolean;
}

/** A scrape waits this long for a backlog query. */
const BACKLOG_TIMEOUT_MS = 2_000;
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MIN_CAP_MS = 60_000;

export function defaultBackoff(intervalMs: number): (failures: number) => number {
  const cap = Math.max(intervalMs, BACKOFF_MIN_CAP_MS);
  return (failures) => Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(0, failures - 1), cap);
}

interface Job {
  spec: JobSpec;
  backoff: (failures: number) => number;
  interval: NodeJS.Timeout | null;
  retry: NodeJS.Timeout | null;
  soon: NodeJS.Immediate | null;
  /** The run under way, with the runs coalesced after it. */
  running: Promise<void> | null;
  again: boolean;
  failures: number;
  retryAt: number;
  runs: number;
  lastOutcome: JobOutcome | null;
  disabled: boolean;
  /** Resolvers of settled(): told when the job has nothing running and nothing due soon. */
  waiters: Array<() => void>;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function createJobRunner(options: JobRunnerOptions) {
  const { log } = options;
  const jobs = new Map<string, Job>();
  let started = false;
  let stopping = false;

  // ── Metrics ─────────────────────────────────────────────────────────────
  const registers = options.registers ?? [];
  const runsTotal = new Counter({
    name: 'job_runs_total',
    help: 'Background job runs, by job and outcome (ok, error).',
    labelNames: ['job', 'outcome'],
    registers,
  });
  const lastRun = new Gauge({ name: 'job_last_run_timestamp_seconds', help: 'When the job last finished a run (Unix time).', labelNames: ['job'], registers });
  const lastSuccess = new Gauge({
    name: 'job_last_success_timestamp_seconds',
    help: 'When the job last finished a run without error (Unix time).',
    labelNames: ['job'],
    registers,
  });
  const lastDuration = new Gauge({ name: 'job_last_duration_seconds', help: 'How long the last run of the job took.', labelNames: ['job'], registers });
  new Gauge({
    name: 'job_backlog',
    help: 'Work waiting for the job (rows or orders due), read at scrape time; jobs with a backlog only.',
    labelNames: ['job'],
    registers,
    async collect() {
      await Promise.all(
        [...jobs.values()].map(async ({ spec }) => {
          if (!spec.backlog) return;
          try {
            this.set({ job: spec.name }, await withTimeout(spec.backlog(), BACKLOG_TIMEOUT_MS));
          } catch (error) {
            // No sample rather than a false 0.
            this.remove({ job: spec.name });
            log.warn({ err: error, job: spec.name }, 'metrics: a job backlog could not be read');
          }
        }),
      );
    },
  });

  // ── Running ─────────────────────────────────────────────────────────────
  const mayRun = (job: Job) => started && !stopping && !job.disabled;

  function settle(job: Job): void {
    if (job.running || job.soon) return;
    for (const resolve of job.waiters.splice(0)) resolve();
  }

  /** One run and the coalesced runs after it; never rejects. */
  async function runLoop(job: Job): Promise<void> {
    do {
      job.again = false;
      const began = performance.now();
      let outcome: JobOutcome = 'ok';
      try {
        await job.spec.run();
      } catch (error) {
        outcome = 'error';
        job.failures += 1;
        const delay = job.backoff(job.failures);
        job.retryAt = Date.now() + delay;
        log.warn({ err: error, job: job.spec.name, failures: job.failures, retryInMs: delay }, 'background job failed; retrying after a backoff');
        scheduleRetry(job, delay);
      }
      const seconds = (performance.now() - began) / 1000;
      const at = Date.now() / 1000;
      job.runs += 1;
      job.lastOutcome = outcome;
      runsTotal.inc({ job: job.spec.name, outcome });
      lastRun.set({ job: job.spec.name }, at);
      lastDuration.set({ job: job.spec.name }, seconds);
      if (outcome === 'ok') {
        lastSuccess.set({ job: job.spec.name }, at);
        job.failures = 0;
        job.retryAt = 0;
        if (job.retry) clearTimeout(job.retry);
        job.retry = null;
      }
      if (job.spec.leaseMs !== undefined && seconds * 1000 > job.spec.leaseMs) {
        log.warn(
          { job: job.spec.name, seconds, leaseMs: job.spec.leaseMs },
          'background job ran longer than its lease: another instance may have taken its rows over',
        );
      }
    } while (job.again && mayRun(job));
    job.again = false;
  }

  /** Starts a run now unless one is under way (then: one more after it when `coalesce`). */
  function trigger(job: Job, coalesce: boolean): void {
    if (!mayRun(job)) return;
    if (job.running) {
      if (coalesce) job.again = true;
      return;
    }
    job.running = runLoop(job).finally(() => {
      job.running = null;
      settle(job);
    });
  }

  function scheduleRetry(job: Job, delay: number): void {
    if (job.retry) clearTimeout(job.retry);
    if (!mayRun(job)) return;
    job.retry = setTimeout(() => {
      job.retry = null;
      trigger(job, true);
    }, delay);
    job.retry.unref();
  }

  function arm(job: Job): void {
    if (job.spec.intervalMs > 0) {
      job.interval = setInterval(() => {
        // A failing job waits for its retry; the run under way is this tick's sweep.
        if (Date.now() < job.retryAt) return;
        trigger(job, false);
      }, job.spec.intervalMs);
      job.interval.unref();
    }
    if (job.spec.runAtStart || job.again) {
      job.again = false;
      poke(job.spec.name);
    }
  }

  function disarm(job: Job): void {
    if (job.interval) clearInterval(job.interval);
    if (job.retry) clearTimeout(job.retry);
    if (job.soon) clearImmediate(job.soon);
    job.interval = null;
    job.retry = null;
    job.soon = null;
    job.again = false;
  }

  function jobOf(name: string): Job {
    const job = jobs.get(name);
    if (!job) throw new Error(`no background job named ${name}`);
    return job;
  }

  /** Runs the job soon; during a run, once more after it. Before start: once at start. After stop: nothing. */
  function poke(name: string): void {
    const job = jobOf(name);
    if (job.disabled || stopping) return;
    if (!started) {
      // Remembered: the job runs once when the runner starts.
      job.again = true;
      return;
    }
    if (job.running) {
      job.again = true;
      return;
    }
    if (job.soon) return;
    job.soon = setImmediate(() => {
      job.soon = null;
      trigger(job, true);
      settle(job);
    });
  }

  return {
    /** Adds a job (before or after start). */
    register(spec: JobSpec): void {
      if (jobs.has(spec.name)) throw new Error(`background job ${spec.name} is registered twice`);
      if (!(spec.intervalMs >= 0)) throw new Error(`background job ${spec.name}: intervalMs must be ≥ 0`);
      const job: Job = {
        spec,
        backoff: spec.backoff ?? defaultBackoff(spec.intervalMs),
        interval: null,
        retry: null,
        soon: null,
        running: null,
        again: false,
        failures: 0,
        retryAt: 0,
        runs: 0,
        lastOutcome: null,
        disabled: false,
        waiters: [],
      };
      jobs.set(spec.name, job);
      for (const outcome of ['ok', 'error'] as const) runsTotal.inc({ job: spec.name, outcome }, 0);
      if (started && !stopping) arm(job);
    },

    /** Starts the timers of every job (once; app.ts does it when the app is ready). */
    start(): void {
      if (started || stopping) return;
      started = true;
      for (const job of jobs.values()) if (!job.disabled) arm(job);
    },

    poke,

    /**
     * No run starts from now on; resolves once the runs under way (and the
     * runs coalesced after them, which do not start) have finished.
     */
    async stop(): Promise<void> {
      stopping = true;
      for (const job of jobs.values()) disarm(job);
      await Promise.all([...jobs.values()].map((job) => job.running));
      for (const job of jobs.values()) settle(job);
    },

    /** Stops one job for good (its run under way finishes first); the others go on. */
    async disable(name: string): Promise<void> {
      const job = jobOf(name);
      job.disabled = true;
      disarm(job);
      await job.running;
      settle(job);
    },

    /** Resolves when the job has no run under way and none due soon (tests: "after the poke, it ran"). */
    settled(name: string): Promise<void> {
      const job = jobOf(name);
      if (!job.running && !job.soon) return Promise.resolve();
      return new Promise((resolve) => job.waiters.push(resolve));
    },

    /** Every job's state (the stop's log line names the jobs still running). */
    states(): JobState[] {
      return [...jobs.values()].map((job) => ({
        name: job.spec.name,
        intervalMs: job.spec.intervalMs,
        running: job.running !== null,
        pending: job.soon !== null || job.again,
        failures: job.failures,
        runs: job.runs,
        lastOutcome: job.lastOutcome,
        disabled: job.disabled,
      }));
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
