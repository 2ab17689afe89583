// The sandbox's outgoing route pushes: each tracking event of a waybill is
// POSTed, signed, to the merchant (us) at PUBLIC_SITE_URL/courier/notify/sandbox
// when its time comes. A sending the merchant does not answer with
// return_code 0000 is retried with growing delays, then given up (the
// merchant's query fallback covers it; the next event is still pushed, so the
// merchant sees events out of order). Some pushes are sent twice on purpose
// (COURIER_SANDBOX_DUPLICATE_RATE), as real couriers do, so the merchant's
// idempotency is exercised in every run. Work is found in the ledger, not in
// timers alone: after a restart, or on another instance, due pushes still go.
import type { FastifyBaseLogger } from 'fastify';
import { SF_ROUTE_PUSH_SERVICE } from './sf-format.ts';
import type { SandboxLedger, SandboxWaybill } from './sandbox-ledger.ts';
import { signedSfForm, type SfSigner } from './sandbox-signature.ts';
import { sandboxRouteId, sandboxTimeline } from './sandbox-tracking.ts';

/** Sends one HTTP POST; the sandbox's network. Tests swap it for app.inject. */
export type PushTransport = (url: string, body: string, headers: Record<string, string>) => Promise<{ status: number; body: string }>;

/** Waits before the 2nd, 3rd … sending of one event (the payment sandbox's schedule). */
export const SANDBOX_PUSH_RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000] as const;
/** A claimed sending not finished by then is taken over by the next round. */
const CLAIM_LEASE_MS = 30_000;
/** Longest sleep between two looks at the ledger (other instances' bookings, restarts). */
const MAX_IDLE_MS = 30_000;
const SEND_TIMEOUT_MS = 5_000;
const BATCH = 50;

export const fetchPushTransport: PushTransport = async (url, body, headers) => {
  const response = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(SEND_TIMEOUT_MS), redirect: 'manual' });
  return { status: response.status, body: await response.text() };
};

/** The msgData of the push of one event, as SF sends it. */
export function sandboxPushMsgData(waybill: SandboxWaybill, index: number): string {
  const event = sandboxTimeline(waybill)[index]!;
  return JSON.stringify({
    Body: {
      WaybillRoute: [
        {
          id: sandboxRouteId(waybill.waybill_no, event),
          mailno: waybill.waybill_no,
          orderid: waybill.order_id,
          acceptTime: event.acceptTime,
          acceptAddress: event.acceptAddress,
          remark: event.remark,
          opCode: event.opCode,
        },
      ],
    },
  });
}

/** Success = HTTP 2xx with return_code "0000" (SF's answer format). */
function accepted(answer: { status: number; body: string }): boolean {
  if (answer.status < 200 || answer.status > 299) return false;
  try {
    return (JSON.parse(answer.body) as { return_code?: unknown }).return_code === '0000';
  } catch {
    return false;
  }
}

export interface SandboxPusherOptions {
  ledger: SandboxLedger;
  signer: SfSigner;
  notifyUrl: string;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** 0…1: the share of pushes sent a second time. */
  duplicateRate: number;
  transport?: PushTransport;
  retryDelaysMs?: readonly number[];
  /** Defaults to Math.random (tests pin it). */
  random?: () => number;
}

export function createSandboxPusher(options: SandboxPusherOptions) {
  const { ledger, signer, notifyUrl, now, log } = options;
  let transport = options.transport ?? fetchPushTransport;
  let duplicateRate = options.duplicateRate;
  const random = options.random ?? Math.random;
  const retryDelays = options.retryDelaysMs ?? SANDBOX_PUSH_RETRY_DELAYS_MS;
  let timer: NodeJS.Timeout | null = null;
  /** When the pending timer fires (our clock). */
  let timerAt = 0;
  let running: Promise<number> | null = null;
  let stopped = false;

  /** One signed sending; true when the merchant answered success. */
  async function send(waybill: SandboxWaybill, msgData: string): Promise<boolean> {
    try {
      const answer = await transport(notifyUrl, signedSfForm(signer, SF_ROUTE_PUSH_SERVICE, msgData, now()), {
        'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
      });
      if (accepted(answer)) return true;
      log.warn({ waybillNo: waybill.waybill_no, status: answer.status, answer: answer.body.slice(0, 200) }, 'sandbox route push refused');
    } catch (error) {
      log.warn({ err: error, waybillNo: waybill.waybill_no }, 'sandbox route push not delivered');
    }
    return false;
  }

  /** Pushes the waybill's current event once (and maybe its repeat), then records how it went. */
  async function pushCurrent(waybill: SandboxWaybill): Promise<void> {
    const msgData = sandboxPushMsgData(waybill, waybill.next_event);
    let sent = 1;
    const delivered = await send(waybill, msgData);
    if (delivered && random() < duplicateRate) {
      sent += 1;
      await send(waybill, msgData);
    }
    const attempts = waybill.push_attempts + 1;
    if (delivered || attempts > retryDelays.length) {
      if (!delivered) log.warn({ waybillNo: waybill.waybill_no, event: waybill.next_event }, 'sandbox route push given up');
      await ledger.recordSending(waybill, { moveOn: true, sent });
    } else {
      await ledger.recordSending(waybill, { moveOn: false, sent, retryAt: now() + retryDelays[attempts - 1]! });
    }
  }

  /** Sends every push that is due (catching up after a pause), until none is; returns how many events were handled. */
  async function runOnce(): Promise<number> {
    let handled = 0;
    for (let round = 0; round < 20; round += 1) {
      const due = await ledger.due(now(), BATCH);
      let claimed = 0;
      for (const waybill of due) {
        if (!(await ledger.claim(waybill, now(), CLAIM_LEASE_MS))) continue;
        claimed += 1;
        await pushCurrent(waybill);
      }
      handled += claimed;
      if (claimed === 0) break;
    }
    return handled;
  }

  /** Runs the due pushes; a call while a run is going on waits for it and runs again. */
  async function runDue(): Promise<number> {
    while (running) await running.catch(() => 0);
    running = runOnce();
    try {
      return await running;
    } finally {
      running = null;
    }
  }

  async function nextDelay(): Promise<number> {
    const dueAt = await ledger.nextDueAt();
    return dueAt === null ? MAX_IDLE_MS : Math.min(MAX_IDLE_MS, Math.max(0, dueAt - now()));
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timerAt = now() + delayMs;
    timer = setTimeout(() => {
      timer = null;
      runDue()
        .then(nextDelay, (error: unknown) => {
          log.warn({ err: error }, 'sandbox route pushes failed');
          return MAX_IDLE_MS;
        })
        .then(
          (delay) => schedule(delay),
          () => schedule(MAX_IDLE_MS),
        );
    }, delayMs);
    timer.unref();
  }

  return {
    /** Starts pushing in the background (the app does; tests drive runDue themselves). */
    start(): void {
      stopped = false;
      schedule(0);
    },
    /** A waybill was just booked: look at the ledger again by its first event's time. */
    wake(at: number): void {
      // While a run is going on (no timer) it looks at the ledger again when it ends.
      if (timer && !stopped && at < timerAt) schedule(Math.max(0, at - now()));
    },
    runDue,
    setTransport(next: PushTransport): void {
      transport = next;
    },
    setDuplicateRate(rate: number): void {
      duplicateRate = rate;
    },
    /** Stops the background pushing (app shutdown, or a test that drives runDue); resolves once a run under way has finished. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => 0);
    },
  };
}

export type SandboxPusher = ReturnType<typeof createSandboxPusher>;
