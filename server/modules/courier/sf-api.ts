// A call to SF Express's open platform (丰桥, POST {SF_API_URL}, one URL for
// every service): a form with partnerID (顾客编码), requestID (a new UUID per
// call — SF refuses one it has seen), serviceCode, timestamp (ms), msgDigest =
// Base64(MD5(URLEncode(msgData + timestamp + checkWord))) and msgData (JSON).
// SF answers JSON: apiResultCode (A1000: the gateway accepted the call; A1001…
// refusals of the call itself), apiErrorMsg, apiResponseID and apiResultData,
// a JSON string {success, errorCode (S0000 on success), errorMsg, msgData}.
// The check word signs every call and is never logged (neither is the form).
import { randomUUID } from 'node:crypto';
import { CourierProviderError } from './provider.ts';
import { sfDigest } from './sandbox-signature.ts';

export interface SfApiOptions {
  url: string;
  partnerId: string;
  checkWord: string;
  /** A call not answered by then is abandoned: its outcome is unknown. */
  timeoutMs: number;
  now: () => number;
  /** The network (tests may swap it); global fetch by default. */
  fetch?: typeof fetch;
}

/** The business answer of a call the gateway accepted (apiResultCode A1000). */
export interface SfAnswer {
  success: boolean;
  errorCode: string | null;
  errorMsg: string | null;
  msgData: unknown;
}

/** SF could not be reached or did not answer in time: the call may or may not have been done. */
export class SfUnreachable extends CourierProviderError {}

/** SF's gateway refused the call (signature, time, partner, service, repeated requestID…): nothing was done. */
export class SfGatewayRefused extends CourierProviderError {
  constructor(
    readonly apiResultCode: string,
    message: string,
  ) {
    super(`SF refused the call: ${apiResultCode} ${message}`);
  }
}

/** The form of one call, signed now with a new requestID. */
export function sfRequestForm(options: Pick<SfApiOptions, 'partnerId' | 'checkWord'>, serviceCode: string, msgData: string, nowMs: number): URLSearchParams {
  const timestamp = String(nowMs);
  return new URLSearchParams({
    partnerID: options.partnerId,
    requestID: randomUUID(),
    serviceCode,
    timestamp,
    msgDigest: sfDigest(msgData, timestamp, options.checkWord),
    msgData,
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function createSfApi(options: SfApiOptions) {
  const send = options.fetch ?? fetch;

  return {
    /** Calls one service; throws SfUnreachable (outcome unknown) or SfGatewayRefused (not done). */
    async call(serviceCode: string, msgData: object): Promise<SfAnswer> {
      const body = sfRequestForm(options, serviceCode, JSON.stringify(msgData), options.now());
      let status: number;
      let text: string;
      try {
        const response = await send(options.url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
          signal: AbortSignal.timeout(options.timeoutMs),
          redirect: 'error',
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        const reason = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') ? 'timed out' : 'unreachable';
        throw new SfUnreachable(`SF ${serviceCode} ${reason}`, { cause: error });
      }
      if (status < 200 || status > 299) throw new SfUnreachable(`SF ${serviceCode} answered HTTP ${status}`);
      const answer = parseJson(text) as { apiResultCode?: unknown; apiErrorMsg?: unknown; apiResultData?: unknown } | undefined;
      if (!answer || typeof answer.apiResultCode !== 'string') throw new SfUnreachable(`SF ${serviceCode} answered something else than its format`);
      if (answer.apiResultCode !== 'A1000') throw new SfGatewayRefused(answer.apiResultCode, typeof answer.apiErrorMsg === 'string' ? answer.apiErrorMsg : '');
      const data = (typeof answer.apiResultData === 'string' ? parseJson(answer.apiResultData) : answer.apiResultData) as
        { success?: unknown; errorCode?: unknown; errorMsg?: unknown; msgData?: unknown } | undefined;
      if (!data || typeof data.success !== 'boolean') throw new SfUnreachable(`SF ${serviceCode} answered without apiResultData`);
      return {
        success: data.success,
        errorCode: typeof data.errorCode === 'string' ? data.errorCode : null,
        errorMsg: typeof data.errorMsg === 'string' ? data.errorMsg : null,
        msgData: data.msgData ?? null,
      };
    },
  };
}

export type SfApi = ReturnType<typeof createSfApi>;
