// The background job runner (server/platform/jobs.ts, decision 0034), on
// Vitest's fake clock: runs on its interval and never twice at once, pokes
// coalesce, a failing run is logged and retried with a growing backoff
// (interval ticks wait for it), stop() waits for the run under way and lets
// none start after it, and the metrics are on the registry.
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJobRunner, defaultBackoff, type JobSpec } from './jobs.ts';

/** A promise the test resolves when it likes: a run that takes as long as the test says. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function runner(registers: Registry[] = []) {
  const log = { info: vi.fn(), warn: vi.fn() };
  return { jobs: createJobRunner({ log, registers }), log };
}

/** A job that counts its runs; `body` decides what a run does (default: nothing). */
function counting(name: string, intervalMs: number, body: (n: number) => Promise<void> | void = () => {}, extra: Partial<JobSpec> = {}) {
  const runs: number[] = [];
  const spec: JobSpec = {
    name,
    intervalMs,
    async run() {
      runs.push(Date.now());
      await body(runs.length);
    },
    ...extra,
  };
  return { spec, runs };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-12-01T02:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the job runner', () => {
  it('runs a job every interval once started, not before, and the first run one interval after start', async () => {
    const { jobs } = runner();
    const job = counting('sweep', 1_000);
    jobs.register(job.spec);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(job.runs).toHaveLength(0);
    jobs.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(job.runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2_001);
    expect(job.runs).toHaveLength(3);
    await jobs.stop();
  });

  it('never runs a job twice at once: a tick during a long run is dropped', async () => {
    const { jobs } = runner();
    const slow = gate();
    let concurrent = 0;
    let most = 0;
    const job = counting('slow', 1_000, async (n) => {
      concurrent += 1;
      most = Math.max(most, concurrent);
      if (n === 1) await slow.opened;
      concurrent -= 1;
    });
    jobs.register(job.spec);
    jobs.start();
    await vi.advanceTimersByTimeAsync(5_500);
    expect(job.runs).toHaveLength(1);
    slow.open();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(job.runs).toHaveLength(2);
    expect(most).toBe(1);
    await jobs.stop();
  });

  it('runs a job soon when poked; pokes in the same turn make one run, pokes during a run make exactly one more', async () => {
    const { jobs } = runner();
    const slow = gate();
    const job = counting('outbox', 0, async (n) => {
      if (n === 1) await slow.opened;
    });
    jobs.register(job.spec);
    jobs.start();
    jobs.poke('outbox');
    jobs.poke('outbox');
    jobs.poke('outbox');
    await vi.advanceTimersByTimeAsync(0);
    expect(job.runs).toHaveLength(1);
    // Five pokes while the first run is under way: one more run after it, not five.
    for (let i = 0; i < 5; i += 1) jobs.poke('outbox');
    slow.open();
    await jobs.settled('outbox');
    expect(job.runs).toHaveLength(2);
    // An interval of 0: nothing runs without a poke.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(job.runs).toHaveLength(2);
    expect(() => jobs.poke('no-such-job')).toThrow('no background job named no-such-job');
    await jobs.stop();
  });

  it('remembers a poke that comes before start, and runs a runAtStart job at once', async () => {
    const { jobs } = runner();
    const poked = counting('poked', 0);
    const atStart = counting('at-start', 60_000, undefined, { runAtStart: true });
    const quiet = counting('quiet', 60_000);
    for (const job of [poked, atStart, quiet]) jobs.register(job.spec);
    jobs.poke('poked');
    jobs.poke('poked');
    expect(poked.runs).toHaveLength(0);
    jobs.start();
    await vi.advanceTimersByTimeAsync(0);
    expect([poked.runs.length, atStart.runs.length, quiet.runs.length]).toEqual([1, 1, 0]);
    await jobs.stop();
  });

  it('logs a failing run, never rejects, and retries it after a doubling backoff; interval ticks wait for the retry', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { jobs, log } = runner();
      let failing = true;
      const job = counting('flaky', 500, () => {
        if (failing) throw new Error('database is locked');
      });
      jobs.register(job.spec);
      jobs.start();
      await vi.advanceTimersByTimeAsync(500);
      expect(job.runs).toHaveLength(1);
      expect(log.warn).toHaveBeenCalledWith(
        expect.objectContaining({ job: 'flaky', failures: 1, retryInMs: 1_000, err: expect.any(Error) }),
        'background job failed; retrying after a backoff',
      );
      // The interval (500 ms) does not run it again before the retry, 1 s after the failure.
      await vi.advanceTimersByTimeAsync(999);
      expect(job.runs).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(job.runs).toHaveLength(2);
      expect(jobs.states().find((state) => state.name === 'flaky')).toMatchObject({ failures: 2, lastOutcome: 'error' });
      // Second failure: 2 s.
      await vi.advanceTimersByTimeAsync(1_999);
      expect(job.runs).toHaveLength(2);
      failing = false;
      await vi.advanceTimersByTimeAsync(1);
      expect(job.runs).toHaveLength(3);
      expect(jobs.states().find((state) => state.name === 'flaky')).toMatchObject({ failures: 0, lastOutcome: 'ok' });
      // Back on its interval.
      await vi.advanceTimersByTimeAsync(1_000);
      expect(job.runs).toHaveLength(5);
      expect(unhandled).not.toHaveBeenCalled();
      await jobs.stop();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('backs off 1 s, 2 s, 4 s … up to the larger of its interval and a minute, unless the job says otherwise', () => {
    expect([1, 2, 3, 4, 7, 20].map(defaultBackoff(15_000))).toEqual([1_000, 2_000, 4_000, 8_000, 60_000, 60_000]);
    expect([1, 10, 20].map(defaultBackoff(3_600_000))).toEqual([1_000, 512_000, 3_600_000]);
  });

  it('stop() waits for the run under way, and no run starts after it began: no tick, no poke, no coalesced run, no retry', async () => {
    const { jobs } = runner();
    const slow = gate();
    const job = counting('long', 1_000, async (n) => {
      if (n === 1) await slow.opened;
    });
    const failing = counting('failing', 1_000, () => {
      throw new Error('down');
    });
    jobs.register(job.spec);
    jobs.register(failing.spec);
    jobs.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect([job.runs.length, failing.runs.length]).toEqual([1, 1]);
    jobs.poke('long');
    let stopped = false;
    const stopping = jobs.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(stopped).toBe(false);
    slow.open();
    await stopping;
    jobs.poke('long');
    jobs.poke('failing');
    await vi.advanceTimersByTimeAsync(120_000);
    // The poke made during the run would have run once more; the stop cancelled it. The failed job's retry is off too.
    expect([job.runs.length, failing.runs.length]).toEqual([1, 1]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('disable() stops one job for good and leaves the others running', async () => {
    const { jobs } = runner();
    const a = counting('a', 1_000);
    const b = counting('b', 1_000);
    jobs.register(a.spec);
    jobs.register(b.spec);
    jobs.start();
    await vi.advanceTimersByTimeAsync(1_000);
    await jobs.disable('a');
    jobs.poke('a');
    await vi.advanceTimersByTimeAsync(3_000);
    expect([a.runs.length, b.runs.length]).toEqual([1, 4]);
    expect(() => jobs.register(counting('b', 1_000).spec)).toThrow('registered twice');
    await jobs.stop();
  });

  it('puts runs, last run, last success, duration and backlog per job on the registry', async () => {
    const registry = new Registry();
    const { jobs, log } = runner([registry]);
    let backlog = 7;
    let backlogFails = false;
    jobs.register(
      counting('outbox', 1_000, undefined, {
        backlog: async () => {
          if (backlogFails) throw new Error('timeout');
          return backlog;
        },
      }).spec,
    );
    jobs.register(
      counting('broken', 1_000, () => {
        throw new Error('down');
      }).spec,
    );
    let text = await registry.metrics();
    // Listed before their first run.
    expect(text).toContain('job_runs_total{job="outbox",outcome="ok"} 0');
    expect(text).toContain('job_runs_total{job="broken",outcome="error"} 0');
    expect(text).toContain('job_backlog{job="outbox"} 7');
    expect(text).not.toContain('job_backlog{job="broken"}');
    jobs.start();
    await vi.advanceTimersByTimeAsync(1_000);
    backlog = 3;
    text = await registry.metrics();
    const at = Date.now() / 1000;
    expect(text).toContain('job_runs_total{job="outbox",outcome="ok"} 1');
    expect(text).toContain('job_runs_total{job="broken",outcome="error"} 1');
    expect(text).toContain(`job_last_run_timestamp_seconds{job="outbox"} ${at}`);
    expect(text).toContain(`job_last_success_timestamp_seconds{job="outbox"} ${at}`);
    expect(text).toContain(`job_last_run_timestamp_seconds{job="broken"} ${at}`);
    expect(text).not.toContain('job_last_success_timestamp_seconds{job="broken"}');
    expect(text).toMatch(/job_last_duration_seconds\{job="outbox"\} \d/);
    expect(text).toContain('job_backlog{job="outbox"} 3');
    // A backlog that cannot be read: no sample rather than a false 0, and a log line.
    backlogFails = true;
    text = await registry.metrics();
    expect(text).not.toContain('job_backlog{job="outbox"}');
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ job: 'outbox' }), 'metrics: a job backlog could not be read');
    await jobs.stop();
  });
});
