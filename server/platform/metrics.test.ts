// GET /metrics (issue 23): who may read it, the metric names, the HTTP
// counters by route pattern, and the database gauges read at scrape time.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, type TestApp } from '../test-support/test-app.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

const METRIC_NAMES = [
  'nodejs_eventloop_lag_seconds',
  'process_cpu_seconds_total',
  'http_requests_total',
  'http_request_duration_seconds',
  'notice_outbox_pending',
  'notice_outbox_oldest_pending_age_seconds',
  'refund_worker_backlog',
  'refunds_failed',
  'login_lockouts',
  'job_runs_total',
  'job_last_run_timestamp_seconds',
  'job_last_success_timestamp_seconds',
  'job_last_duration_seconds',
  'job_backlog',
];

let t: TestApp;

beforeAll(async () => {
  const testDb = await createTestDatabase();
  testDb.config.METRICS_TOKEN = TOKEN;
  t = await createTestApp(testDb);
});
afterAll(async () => {
  await t.close(true);
});

function scrape(options: { remoteAddress?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({ method: 'GET', url: '/metrics', ...options });
}

async function metricsText(): Promise<string> {
  const answer = await scrape();
  expect(answer.statusCode).toBe(200);
  return answer.body;
}

/** The value of one sample (labels as written by prom-client, in their order), or undefined when absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((row) => row.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

describe('who may read /metrics', () => {
  it('a loopback connection no proxy forwarded: 200, Prometheus text, not cached', async () => {
    const answer = await scrape();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('another address: the ordinary 404, as for a path that does not exist', async () => {
    const answer = await scrape({ remoteAddress: '10.0.0.1' });
    expect(answer.statusCode).toBe(404);
    const unknown = await t.app.inject({ method: 'GET', url: '/no-such-path', remoteAddress: '10.0.0.1' });
    expect(answer.body).toBe(unknown.body);
    expect(answer.body).not.toContain('http_requests_total');
  });

  it('loopback but forwarded by a proxy (nginx on the same host): 404', async () => {
    expect((await scrape({ headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode).toBe(404);
    expect((await scrape({ headers: { forwarded: 'for=203.0.113.9' } })).statusCode).toBe(404);
    expect((await scrape({ remoteAddress: '::1', headers: { 'x-real-ip': '203.0.113.9' } })).statusCode).toBe(404);
    expect((await scrape({ remoteAddress: '::ffff:127.0.0.1' })).statusCode).toBe(200);
  });

  it('anyone with the bearer token (METRICS_TOKEN); a wrong token is a 404', async () => {
    const allowed = await scrape({ remoteAddress: '10.0.0.1', headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('http_requests_total');
    expect((await scrape({ remoteAddress: '10.0.0.1', headers: { authorization: `Bearer ${TOKEN}x` } })).statusCode).toBe(404);
    expect((await scrape({ remoteAddress: '10.0.0.1', headers: { authorization: 'Bearer ' } })).statusCode).toBe(404);
    expect((await scrape({ remoteAddress: '10.0.0.1', headers: { authorization: TOKEN } })).statusCode).toBe(404);
  });
});

describe('the metrics', () => {
  it('has every metric named in the README (the pool gauges on PostgreSQL only)', async () => {
    const text = await metricsText();
    for (const name of METRIC_NAMES) expect(text, name).toContain(`# TYPE ${name} `);
    if (t.kind === 'postgres') {
      expect(sample(text, 'db_pool_connections_in_use')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'db_pool_connections_waiting')).toBe(0);
    } else {
      expect(text).not.toContain('db_pool_connections_in_use');
    }
    expect(sample(text, 'refund_worker_backlog')).toBe(0);
    expect(sample(text, 'refunds_failed')).toBe(0);
  });

  it('counts a /www call under its route pattern, and an unknown path as not_found; never the probes or /metrics', async () => {
    const labels = 'method="POST",route="/www/sys_config_get",status_code="200"';
    const before = sample(await metricsText(), 'http_requests_total', labels) ?? 0;
    expect((await t.call('/www/sys_config_get')).body.ret).toBe(0);
    expect((await t.call('/www/sys_config_get')).body.ret).toBe(0);
    await t.app.inject({ method: 'GET', url: '/no-such-path/123?x=1' });
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.app.inject({ method: 'GET', url: '/readyz' });
    await scrape({ remoteAddress: '10.0.0.1' });
    const text = await metricsText();
    expect(sample(text, 'http_requests_total', labels)).toBe(before + 2);
    expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(before + 2);
    expect(sample(text, 'http_requests_total', 'method="GET",route="not_found",status_code="404"')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/no-such-path');
    expect(text).not.toMatch(/route="\/(healthz|readyz|metrics)"/);
  });

  it('notice_outbox_pending and the oldest pending age follow the notice_email table', async () => {
    const before = sample(await metricsText(), 'notice_outbox_pending')!;
    const at = t.clock.now;
    const notice = await t.db
      .insertInto('notice')
      .values({
        recipient_kind: 'customer',
        recipient_id: 1,
        kind: 'test',
        user_order_id: null,
        title: '测试',
        body: '测试',
        link: '/notice',
        order_event_id: null,
        read_at: null,
        created_at: at,
      })
      .returning('notice_id')
      .executeTakeFirstOrThrow();
    // Due in an hour: the outbox worker's sweep leaves it alone during the test.
    await t.db
      .insertInto('notice_email')
      .values({
        notice_id: notice.notice_id,
        to_address: 'ops@example.com',
        subject: '测试',
        text: '测试',
        html: '<p>测试</p>',
        status: 'pending',
        next_attempt_at: at + 3_600_000,
        claimed_until: null,
        claim_token: null,
        last_error: null,
        sent_at: null,
        created_at: at - 90_000,
      })
      .execute();
    const text = await metricsText();
    expect(sample(text, 'notice_outbox_pending')).toBe(before + 1);
    expect(sample(text, 'notice_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(90);
  });

  it('login_lockouts counts the keys locked now, by side', async () => {
    const at = t.clock.now;
    await t.db
      .insertInto('login_throttle')
      .values([
        { throttle_key: 'operator:account:li_lei', failures: 0, window_started_at: at, locked_until: at + 60_000 },
        { throttle_key: 'customer:ip:203.0.113.9', failures: 0, window_started_at: at, locked_until: at + 60_000 },
        { throttle_key: 'customer:account:acme_admin', failures: 0, window_started_at: at, locked_until: at + 60_000 },
        { throttle_key: 'customer:account:old_lock', failures: 0, window_started_at: at, locked_until: at - 1 },
      ])
      .execute();
    const text = await metricsText();
    expect(sample(text, 'login_lockouts', 'side="operator"')).toBe(1);
    expect(sample(text, 'login_lockouts', 'side="customer"')).toBe(2);
  });

  it('a gauge whose query fails is left out, and /metrics still answers 200', async () => {
    await sql`alter table notice_email rename to notice_email_away`.execute(t.db);
    try {
      const text = await metricsText();
      expect(text).toContain('# TYPE notice_outbox_pending gauge');
      expect(sample(text, 'notice_outbox_pending')).toBeUndefined();
      expect(sample(text, 'refund_worker_backlog')).toBe(0);
    } finally {
      await sql`alter table notice_email_away rename to notice_email`.execute(t.db);
    }
    expect(sample(await metricsText(), 'notice_outbox_pending')).toBeGreaterThanOrEqual(1);
  });
});

describe('the background jobs (server/platform/jobs.ts)', () => {
  const JOBS = [
    'replay-purge',
    'rate-limit-purge',
    'order-expiry',
    'notice-outbox',
    'traveller-outbox',
    'payment-reconcile',
    'refunds',
    'payment-bill-reconcile',
    'courier-sweep',
    'retention',
    'traveller-document-retention',
    'reminder-expiry',
    'reminder-interview',
    'reminder-departure',
  ];
  const WITH_BACKLOG = ['order-expiry', 'notice-outbox', 'traveller-outbox', 'payment-reconcile', 'refunds', 'courier-sweep', 'retention'];

  it('lists every job of the app with its runs, its last run and its backlog', async () => {
    expect(t.app.jobs.states().map((job) => job.name)).toEqual(JOBS);
    // The outbox and the refund worker run once at start.
    await Promise.all(['notice-outbox', 'refunds'].map((name) => t.app.jobs.settled(name)));
    const text = await metricsText();
    for (const job of JOBS) {
      expect(sample(text, 'job_runs_total', `job="${job}",outcome="ok"`), job).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'job_runs_total', `job="${job}",outcome="error"`), job).toBe(0);
    }
    for (const job of ['notice-outbox', 'refunds']) {
      expect(sample(text, 'job_runs_total', `job="${job}",outcome="ok"`), job).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'job_last_run_timestamp_seconds', `job="${job}"`)! * 1000).toBeGreaterThan(Date.now() - 600_000);
      expect(sample(text, 'job_last_duration_seconds', `job="${job}"`)).toBeGreaterThanOrEqual(0);
    }
    for (const job of WITH_BACKLOG) expect(sample(text, 'job_backlog', `job="${job}"`), job).toBeGreaterThanOrEqual(0);
    expect(text).not.toContain('job_backlog{job="replay-purge"}');
  });
});

describe('two apps in one process', () => {
  it('each has its own counters; the default metrics are collected once and served by both', async () => {
    const other = await createTestApp();
    try {
      await other.call('/www/sys_config_get');
      const mine = await metricsText();
      const theirs = (await other.app.inject({ method: 'GET', url: '/metrics' })).body;
      const labels = 'method="POST",route="/www/sys_config_get",status_code="200"';
      expect(sample(theirs, 'http_requests_total', labels)).toBe(1);
      expect(sample(mine, 'http_requests_total', labels)).toBeGreaterThanOrEqual(2);
      expect(theirs).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    } finally {
      await other.close();
    }
  });
});
