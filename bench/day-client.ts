// The load driver of `npm run bench:day` (bench/day.ts): a light HTTP client
// (node:http with keep-alive connections, no browser, bodies never
// decompressed), the spec §7 signature headers, a round-robin "load balancer"
// over the instances, and the recorder of every call's time and outcome by
// group. An outcome is an error when it is a network failure, an HTTP status
// ≥ 400 the scenario did not expect, or an envelope whose ret ≠ 0 the
// scenario did not expect; an expected refusal (e.g. two operators taking the
// same order at once) is counted apart, not as an error.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { API_VERSION } from '../common/constants.ts';
import { newRequestId, signRequest } from '../common/signing.ts';

/** What a scenario may call on: one of these groups, each reported on its own row. */
export const GROUPS = [
  'visitor pages (HTML)',
  'visitor navigation (.data)',
  'static assets',
  'catalogue API',
  'customer pages',
  'customer ordering',
  'uploads',
  'payment',
  'order reads',
  'operator queue',
  'operator review',
] as const;
export type Group = (typeof GROUPS)[number];

export const TIMELINE_SLICE_MS = 5_000;

interface GroupStats {
  times: number[];
  errors: number;
  expected: number;
  firstErrors: string[];
}

export class Recorder {
  /** Latencies are kept only while measuring; errors are counted in every phase. */
  measuring = false;
  readonly groups = new Map<Group, GroupStats>(GROUPS.map((g) => [g, { times: [], errors: 0, expected: 0, firstErrors: [] }]));
  warmupErrors = 0;
  readonly warmupFirstErrors: string[] = [];
  /** Requests sent in each phase. */
  counts = { warmup: 0, measured: 0 };
  /** Measured times by call (method and path, ids and asset names folded, no query). */
  readonly byLabel = new Map<string, number[]>();
  /** Measured times by the slice of the window the call started in (TIMELINE_SLICE_MS each). */
  readonly timeline: number[][] = [];
  measureStartedAt = 0;

  startMeasuring(): void {
    this.measureStartedAt = performance.now();
    this.measuring = true;
  }

  record(group: Group, ms: number, outcome: 'ok' | 'expected' | 'error', detail = '', startedWhileMeasuring = this.measuring, label?: string): void {
    if (!startedWhileMeasuring) {
      this.counts.warmup += 1;
      if (outcome === 'error') {
        this.warmupErrors += 1;
        if (this.warmupFirstErrors.length < 5) this.warmupFirstErrors.push(`${group}: ${detail}`);
      }
      return;
    }
    this.counts.measured += 1;
    const slice = Math.max(0, Math.floor((performance.now() - ms - this.measureStartedAt) / TIMELINE_SLICE_MS));
    (this.timeline[slice] ??= []).push(ms);
    if (label) {
      const folded = label
        .split('?')[0]!
        .replace(/\/assets\/.*/, '/assets/*')
        .replace(/\/sandbox\/pay\/[^/]+/, '/sandbox/pay/:no')
        .replace(/\d+/g, ':id');
      let times = this.byLabel.get(folded);
      if (!times) this.byLabel.set(folded, (times = []));
      times.push(ms);
    }
    const stats = this.groups.get(group)!;
    stats.times.push(ms);
    if (outcome === 'expected') stats.expected += 1;
    if (outcome === 'error') {
      stats.errors += 1;
      if (stats.firstErrors.length < 5) stats.firstErrors.push(detail);
    }
  }
}

export interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const TIMEOUT_MS = 30_000;
// One pool of keep-alive connections per instance, like a browser's or a load balancer's.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });

/** One HTTP exchange; resolves with the whole body (as sent: compressed bodies stay compressed). */
export function send(url: URL, method: string, headers: Record<string, string>, body?: Buffer): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent, headers: body ? { ...headers, 'content-length': String(body.length) } : headers, timeout: TIMEOUT_MS },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`timeout after ${TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

export interface SigningPair {
  platform: string;
  accessKey: string;
  secret: string;
}

/** The ids this run signed with, so that the bench can delete its replay keys from Redis at the end. */
export const sentRequestIds: string[] = [];

export function signedHeaders(pair: SigningPair, token?: string): Record<string, string> {
  const date = new Date().toUTCString();
  const requestId = newRequestId();
  sentRequestIds.push(requestId);
  const headers: Record<string, string> = {
    'x-version': API_VERSION,
    'x-date': date,
    'x-request-id': requestId,
    platform: pair.platform,
    authorization: `Basic ${signRequest({ accessKey: pair.accessKey, date, version: API_VERSION, requestId }, pair.secret)}`,
  };
  if (token) headers['x-token'] = token;
  return headers;
}

export const BROWSER_HEADERS = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 bench-day',
  'accept-language': 'zh-CN,zh;q=0.9',
  'accept-encoding': 'gzip, deflate, br, zstd',
};

export interface Envelope<T = any> {
  ret: number;
  msg: string;
  body: T;
  /** The answer's HTTP headers (e.g. a login's Set-Cookie). */
  headers?: http.IncomingHttpHeaders;
}

/** A multipart body: the text fields first, then the one file (what material_upload reads). */
export function multipart(fields: Record<string, string | number>, file: { name: string; type: string; bytes: Buffer }): { body: Buffer; contentType: string } {
  const boundary = `----benchday${randomBytes(12).toString('hex')}`;
  const head =
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export class CallError extends Error {}

export interface CallOptions {
  /** ret values that are a normal answer for this scenario (counted as expected refusals). */
  expectRet?: number[];
  /** HTTP statuses ≥ 400 that are a normal answer here. */
  expectStatus?: number[];
  /** Send to this instance instead of the next one in turn (a URL the server gave, e.g. the sandbox pay page). */
  base?: string;
}

/**
 * The client of one virtual user: every call goes to the next instance in
 * turn (round-robin over all users, as a load balancer without stickiness
 * would), is timed from the first byte sent to the last byte received, and
 * is recorded under its group.
 */
export class Client {
  private static turn = 0;
  constructor(
    readonly bases: string[],
    readonly pair: SigningPair,
    readonly recorder: Recorder,
  ) {}

  nextBase(): string {
    Client.turn = (Client.turn + 1) % this.bases.length;
    return this.bases[Client.turn]!;
  }

  /** A timed exchange: records it, and answers null when it failed (already counted as an error). */
  async exchange(
    group: Group,
    label: string,
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: Buffer | undefined,
    options: CallOptions,
    judge: (response: Response) => { outcome: 'ok' | 'expected' | 'error'; detail?: string },
  ): Promise<Response | null> {
    const measuring = this.recorder.measuring;
    const started = performance.now();
    let response: Response;
    try {
      response = await send(url, method, headers, body);
    } catch (error) {
      this.recorder.record(group, performance.now() - started, 'error', `${label}: ${(error as Error).message}`, measuring, label);
      return null;
    }
    const ms = performance.now() - started;
    if (response.status >= 400 && !options.expectStatus?.includes(response.status)) {
      this.recorder.record(group, ms, 'error', `${label}: HTTP ${response.status} ${response.body.subarray(0, 200).toString()}`, measuring, label);
      return null;
    }
    const { outcome, detail } = response.status >= 400 ? { outcome: 'expected' as const, detail: '' } : judge(response);
    this.recorder.record(group, ms, outcome, `${label}: ${detail ?? ''}`, measuring, label);
    return outcome === 'error' ? null : response;
  }

  /** A signed JSON call; the envelope's body, or null when it failed or was an expected refusal (see `ret`). */
  async call<T = any>(group: Group, path: string, payload: object, token?: string, options: CallOptions = {}): Promise<Envelope<T> | null> {
    const url = new URL(path, options.base ?? this.nextBase());
    let envelope: Envelope<T> | null = null;
    const response = await this.exchange(
      group,
      path,
      url,
      'POST',
      { ...signedHeaders(this.pair, token), 'content-type': 'application/json', 'user-agent': BROWSER_HEADERS['user-agent'] },
      Buffer.from(JSON.stringify(payload)),
      options,
      (r) => {
        try {
          envelope = { ...(JSON.parse(r.body.toString()) as Envelope<T>), headers: r.headers };
        } catch {
          return { outcome: 'error', detail: `HTTP ${r.status}, not JSON` };
        }
        if (envelope.ret === 0) return { outcome: 'ok' };
        if (options.expectRet?.includes(envelope.ret)) return { outcome: 'expected' };
        return { outcome: 'error', detail: `ret ${envelope.ret} ${envelope.msg}` };
      },
    );
    return response ? envelope : null;
  }

  /** A signed multipart upload. */
  async upload<T = any>(
    group: Group,
    path: string,
    form: { body: Buffer; contentType: string },
    token: string,
    options: CallOptions = {},
  ): Promise<Envelope<T> | null> {
    const url = new URL(path, options.base ?? this.nextBase());
    let envelope: Envelope<T> | null = null;
    const response = await this.exchange(
      group,
      path,
      url,
      'POST',
      { ...signedHeaders(this.pair, token), 'content-type': form.contentType, 'user-agent': BROWSER_HEADERS['user-agent'] },
      form.body,
      options,
      (r) => {
        try {
          envelope = JSON.parse(r.body.toString()) as Envelope<T>;
        } catch {
          return { outcome: 'error', detail: `HTTP ${r.status}, not JSON` };
        }
        if (envelope.ret === 0) return { outcome: 'ok' };
        if (options.expectRet?.includes(envelope.ret)) return { outcome: 'expected' };
        return { outcome: 'error', detail: `ret ${envelope.ret} ${envelope.msg}` };
      },
    );
    return response ? envelope : null;
  }

  /** A browser GET (page, .data navigation, asset, file); 2xx and 3xx are fine unless options say otherwise. */
  async get(group: Group, path: string, headers: Record<string, string> = {}, options: CallOptions = {}): Promise<Response | null> {
    const url = new URL(path, options.base ?? this.nextBase());
    // A page that sends the user elsewhere (the back office's login, for one) did not show what was asked for.
    return this.exchange(group, `GET ${path}`, url, 'GET', { ...BROWSER_HEADERS, ...headers }, undefined, options, (r) => {
      if (r.status >= 300 && r.status < 400) return { outcome: 'error', detail: `HTTP ${r.status} to ${r.headers.location}` };
      if (r.status === 202 && r.body.subarray(0, 40).toString().includes('SingleFetchRedirect')) {
        return { outcome: 'error', detail: `redirected: ${r.body.subarray(0, 200).toString()}` };
      }
      return { outcome: 'ok' };
    });
  }

  /** A browser form POST (the sandbox pay page's 确认支付), answered by a redirect. */
  async postForm(group: Group, path: string, options: CallOptions = {}): Promise<Response | null> {
    const url = new URL(path, options.base ?? this.nextBase());
    return this.exchange(
      group,
      `POST ${path}`,
      url,
      'POST',
      { ...BROWSER_HEADERS, 'content-type': 'application/x-www-form-urlencoded' },
      Buffer.alloc(0),
      options,
      (r) =>
        r.status === 303 && !/notice=(expired|closed)/.test(String(r.headers.location))
          ? { outcome: 'ok' }
          : { outcome: 'error', detail: `HTTP ${r.status} ${r.headers.location ?? ''}` },
    );
  }
}

/** A cookie's value from an answer's Set-Cookie headers. */
export function setCookie(headers: http.IncomingHttpHeaders | undefined, name: string): string | undefined {
  for (const line of headers?.['set-cookie'] ?? []) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    if (pair!.slice(0, at).trim() === name) return decodeURIComponent(pair!.slice(at + 1).trim());
  }
  return undefined;
}

/** The p-th percentile (nearest rank) of sorted figures. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
