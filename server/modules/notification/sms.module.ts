// The SMS side of the notification module (issue 29, decision 0046): which
// provider sends (configuration), and the opt-out — a traveller who replies
// TD (or T, 退订, N) to one of our messages gets no SMS any more.
//
// Alibaba Cloud pushes replies (上行短信, SmsUp) to an HTTP URL configured in
// its console as a JSON array of {phone_number, content, send_time, sign_name,
// dest_code, sequence_id} and expects {"code":0,"msg":"成功"}. The push is not
// signed, so the URL carries a secret (SMS_REPLY_TOKEN): POST /sms/reply/<token>.
// The sandbox has no replies; tests and operators opt a number out directly.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { normaliseMobile } from '../order-notices/traveller-messages.ts';
import { createAliyunSms, createSandboxSms, parseTemplateCodes, type SmsProvider } from './sms-provider.ts';

export function createSmsProvider(config: AppConfig, now: () => number): SmsProvider {
  if (config.SMS_PROVIDER === 'aliyun') {
    // loadConfig refused to start without these (server/config.ts).
    return createAliyunSms({
      accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID!,
      accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET!,
      signName: config.ALIYUN_SMS_SIGN_NAME!,
      templates: parseTemplateCodes(config.ALIYUN_SMS_TEMPLATES ?? ''),
      endpoint: config.ALIYUN_SMS_ENDPOINT,
      timeoutMs: config.ALIYUN_SMS_TIMEOUT_MS,
      now,
    });
  }
  return createSandboxSms(config.SMS_OUTBOX_DIR, now);
}

/** The words of a reply that mean "no more SMS" (the industry's TD convention and its variants). */
const OPT_OUT_WORDS = new Set(['TD', 'T', 'N', '退订', '退定', 'QX', '取消']);

export function isOptOutReply(content: string): boolean {
  return OPT_OUT_WORDS.has(
    content
      .trim()
      .replace(/[。.!！\s]+$/, '')
      .toUpperCase(),
  );
}

/** Opts a number out (again: no change). Returns false for a number that is not a mobile. */
export async function optOut(db: Kysely<Database>, rawMobile: string, source: 'reply' | 'operator', at: number): Promise<boolean> {
  const mobile = normaliseMobile(rawMobile);
  if (!mobile) return false;
  await db
    .insertInto('sms_opt_out')
    .values({ mobile, source, created_at: at })
    .onConflict((oc) => oc.column('mobile').doNothing())
    .execute();
  return true;
}

export async function isOptedOut(db: Kysely<Database>, rawMobile: string): Promise<boolean> {
  const mobile = normaliseMobile(rawMobile);
  if (!mobile) return false;
  return (await db.selectFrom('sms_opt_out').select('mobile').where('mobile', '=', mobile).executeTakeFirst()) !== undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** POST /sms/reply/<SMS_REPLY_TOKEN>: the provider's reply push; nothing is registered without a token. */
export function installSmsReply(app: FastifyInstance, options: { db: Kysely<Database>; now: () => number; token?: string }): void {
  const { db, now, token } = options;
  if (!token) return;
  app.post('/sms/reply/:token', { schema: { hide: true }, config: { auth: 'none' }, bodyLimit: 64 * 1024 }, async (request, reply) => {
    const given = (request.params as { token?: string }).token ?? '';
    if (!sameSecret(given, token)) return reply.status(404).send({ code: 404, msg: 'not found' });
    const items = Array.isArray(request.body) ? request.body : [request.body];
    let optedOut = 0;
    for (const item of items) {
      if (!item || typeof item !== 'object') continue;
      const { phone_number: phone, content } = item as { phone_number?: unknown; content?: unknown };
      if (typeof phone !== 'string' || typeof content !== 'string' || !isOptOutReply(content)) continue;
      if (await optOut(db, phone, 'reply', now())) optedOut += 1;
    }
    request.log.info({ replies: items.length, optedOut }, 'sms replies received');
    return reply.send({ code: 0, msg: '成功' });
  });
}
