// Outgoing SMS (issue 29, decision 0046). Two providers behind one interface:
// - the sandbox (the default): each message is written as a JSON file into
//   SMS_OUTBOX_DIR, like the e-mail outbox's .eml files, where tests and
//   developers read it;
// - Alibaba Cloud SMS (dysmsapi, SendSms): a small signed client of its RPC
//   API — a GET whose query is signed with HMAC-SHA1 (signature version 1.0).
// Only approved templates are sent: the caller gives a template key and its
// variables; the provider maps the key to the template code registered with
// Alibaba Cloud (configuration), and the signature name (签名) is configured.
import { createHmac, randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface SmsMessage {
  /** A mainland mobile number, 11 digits. */
  to: string;
  /** The template key (order-notices/traveller-messages.ts TRAVELLER_TEMPLATES). */
  template: string;
  params: Record<string, string>;
  /** The rendered words (the sandbox keeps them; Alibaba renders its own copy of the template). */
  text: string;
}

export interface SmsSendResult {
  /** The provider's id of the message (Alibaba's BizId). */
  id: string;
}

export interface SmsProvider {
  readonly kind: 'sandbox' | 'aliyun';
  send(message: SmsMessage): Promise<SmsSendResult>;
}

/** A refusal of the provider: its code and message, and whether sending again can help. */
export class SmsSendError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** True when a retry cannot succeed (a bad number, a template or signature not approved). */
    readonly permanent: boolean,
  ) {
    super(`${code}: ${message}`);
  }
}

// ── The sandbox ───────────────────────────────────────────────────────────

export interface SandboxSmsRecord extends SmsMessage {
  id: string;
  sent_at: string;
}

export function createSandboxSms(dir: string, now: () => number = Date.now): SmsProvider {
  // File names sort in the order of sending, within one millisecond too.
  let sequence = 0;
  return {
    kind: 'sandbox',
    async send(message) {
      const id = randomUUID();
      const record: SandboxSmsRecord = { id, ...message, sent_at: new Date(now()).toISOString() };
      await mkdir(dir, { recursive: true });
      sequence += 1;
      const file = join(dir, `${new Date(now()).toISOString().replace(/[-:.]/g, '')}-${String(sequence).padStart(6, '0')}-${id}.json`);
      // Written aside then renamed: whoever watches the folder never reads half a message.
      await writeFile(`${file}.part`, JSON.stringify(record, null, 2));
      await rename(`${file}.part`, file);
      return { id };
    },
  };
}

// ── Alibaba Cloud SMS ─────────────────────────────────────────────────────

/**
 * Alibaba Cloud's percent-encoding of the RPC signature (its "percentEncode"):
 * UTF-8, every byte but A–Z a–z 0–9 - _ . ~ as %XY with upper-case hex — so a
 * space is %20 (never +), * is %2A and ~ stays ~.
 */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The canonicalized query: the parameters but Signature, sorted by name (code units), name=value encoded, joined by &. */
export function canonicalizedQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((name) => name !== 'Signature')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => `${percentEncode(name)}=${percentEncode(params[name]!)}`)
    .join('&');
}

/** Signature = Base64(HMAC-SHA1(AccessKeySecret + "&", method + "&%2F&" + percentEncode(canonicalized query))). */
export function rpcSignature(params: Record<string, string>, accessKeySecret: string, method = 'GET'): string {
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonicalizedQuery(params))}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign, 'utf8').digest('base64');
}

/** Alibaba's codes after which sending the same request again cannot succeed. */
const PERMANENT_CODES = new Set([
  'isv.MOBILE_NUMBER_ILLEGAL',
  'isv.MOBILE_COUNT_OVER_LIMIT',
  'isv.TEMPLATE_MISSING_PARAMETERS',
  'isv.SMS_TEMPLATE_ILLEGAL',
  'isv.SMS_SIGNATURE_ILLEGAL',
  'isv.INVALID_PARAMETERS',
  'isv.INVALID_JSON_PARAM',
  'isv.PARAM_LENGTH_LIMIT',
  'isv.BLACK_KEY_CONTROL_LIMIT',
  'isv.DENY_IP_RANGE',
  'InvalidAccessKeyId.NotFound',
  'SignatureDoesNotMatch',
]);

export interface AliyunSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  /** 短信签名 (SignName) approved for the account. */
  signName: string;
  /** Our template key → Alibaba's template code (SMS_123456789). */
  templates: Record<string, string>;
  /** https://dysmsapi.aliyuncs.com/ (a local fake in tests). */
  endpoint: string;
  timeoutMs: number;
  now?: () => number;
  fetch?: typeof fetch;
}

/** Alibaba's Timestamp: ISO 8601 UTC without milliseconds. */
function timestamp(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function createAliyunSms(config: AliyunSmsConfig): SmsProvider {
  const now = config.now ?? Date.now;
  const doFetch = config.fetch ?? fetch;
  return {
    kind: 'aliyun',
    async send(message) {
      const templateCode = config.templates[message.template];
      if (!templateCode) throw new SmsSendError('LOCAL.TEMPLATE_NOT_CONFIGURED', `模板 ${message.template} 未配置阿里云模板号`, true);
      const params: Record<string, string> = {
        AccessKeyId: config.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: message.to,
        RegionId: 'cn-hangzhou',
        SignName: config.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: templateCode,
        TemplateParam: JSON.stringify(message.params),
        Timestamp: timestamp(now()),
        Version: '2017-05-25',
      };
      const signature = rpcSignature(params, config.accessKeySecret);
      const url = `${config.endpoint.replace(/\/+$/, '')}/?Signature=${percentEncode(signature)}&${canonicalizedQuery(params)}`;
      let response: Response;
      try {
        response = await doFetch(url, { method: 'GET', signal: AbortSignal.timeout(config.timeoutMs) });
      } catch (error) {
        throw new SmsSendError('LOCAL.NETWORK', error instanceof Error ? error.message : String(error), false);
      }
      const body = (await response.json().catch(() => null)) as { Code?: string; Message?: string; BizId?: string } | null;
      if (!body || typeof body.Code !== 'string') throw new SmsSendError('LOCAL.BAD_RESPONSE', `HTTP ${response.status}，应答不是阿里云短信的 JSON`, false);
      if (body.Code !== 'OK') throw new SmsSendError(body.Code, body.Message ?? '', PERMANENT_CODES.has(body.Code));
      return { id: body.BizId ?? '' };
    },
  };
}

/** "appointment=SMS_1,page_check=SMS_2" → a map (ALIYUN_SMS_TEMPLATES). */
export function parseTemplateCodes(text: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const [key, code] = pair.split('=').map((s) => s.trim());
    if (key && code) map[key] = code;
  }
  return map;
}
