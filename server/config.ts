// Configuration from environment variables, validated once at start-up.
// Every variable is documented in .env.example; a bad value stops the app with
// a message naming the variable.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseTemplateCodes } from './modules/notification/sms-provider.ts';
import { TRAVELLER_TEMPLATES } from './modules/order-notices/traveller-messages.ts';
import { DEVELOPMENT_FILE_KEY, type FileKeyring, fileKeyring, parseMasterKey } from './modules/stored-file/file-keys.ts';

/** Development pair for the web client (platform 4). Refused when APP_ENV=prod. */
export const DEV_API_CLIENTS = '4:visa-web-dev:dev-secret-change-me-4f8a1c2e9b7d';
/** The sandboxes' published secrets (.env.example): refused in prod, where a staging sandbox needs its own. */
export const DEV_PAYMENT_SANDBOX_SECRET = 'sandbox-notify-secret-change-me-71c3';
export const DEV_COURIER_SANDBOX_CHECK_WORD = 'sandbox-courier-checkword-change-me-5d2e';

const apiClients = z.string().transform((value, ctx) => {
  const clients = new Map<string, { accessKey: string; secret: string }>();
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [platform, accessKey, ...secretParts] = entry.split(':');
    const secret = secretParts.join(':');
    if (!platform || !/^\d+$/.test(platform) || !accessKey || secret.length < 16) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry.split(':')[0]}:…" must look like platform:accessKey:secret, secret ≥ 16 characters`,
      });
      return z.NEVER;
    }
    clients.set(platform, { accessKey, secret });
  }
  if (clients.size === 0) {
    ctx.addIssue({ code: 'custom', message: 'at least one platform:accessKey:secret is needed' });
    return z.NEVER;
  }
  return clients;
});

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const schema = z.object({
  APP_ENV: z.enum(['dev', 'demo', 'test', 'prod']).default('dev'),
  /** Unset: 127.0.0.1 in dev and test (a developer's machine), 0.0.0.0 in demo and prod (loadConfig). */
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** After SIGTERM: how long /readyz answers 503 while the server still serves, before it stops (server/main.ts). */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave it unset for SQLite)')
    .optional(),
  SQLITE_FILE: z.string().min(1).default('data/visa.db'),
  /** Shared store of used request ids for several instances (optional). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss:// (leave it unset for the embedded store)')
    .optional(),
  API_CLIENTS: apiClients.prefault(DEV_API_CLIENTS),
  WEB_PLATFORM: z.string().regex(/^\d+$/).default('4'),
  SIGNATURE_MAX_SKEW_SECONDS: z.coerce.number().int().min(60).max(3600).default(900),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(60 * 24 * 30)
    .default(720),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(168),
  /** Back-office sessions: shorter than customers' (staff see passports). */
  OPERATOR_SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(60 * 24)
    .default(60),
  OPERATOR_SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(72).default(12),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  TRUST_PROXY: flag.default(false),
  ANALYTICS_SCRIPT_URL: z.url().optional(),
  CS_HOTLINE: z.string().min(1).default('400-820-6688'),
  CS_WORKING_HOURS: z.string().min(1).default('周一至周日 09:00-21:00（法定节假日除外）'),
  CS_WECHAT: z.string().min(1).default('yiqiantong_kefu'),
  CS_EMAIL: z.email().default('service@yiqiantong.example'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must look like smtp://user:password@host:port (or smtps://)')
    .optional(),
  MAIL_FROM: z.string().min(3).default('易签通 <no-reply@yiqiantong.example>'),
  OUTBOX_DIR: z.string().min(1).default('data/outbox'),
  // How often the notices' e-mail outbox is swept for rows no after-commit hook announced (0: never; decisions 0018, 0034).
  NOTICE_OUTBOX_SWEEP_SECONDS: z.coerce.number().int().min(0).max(3600).default(15),
  MINI_PROGRAM_LINK_BASE: z.url().default('https://m.yiqiantong.example/mp/'),
  /** Unset: http://localhost:<PORT> (loadConfig), so a second instance on another port calls itself back. */
  PUBLIC_SITE_URL: z.url().optional(),
  // Uploaded materials: local disk outside the web root, or an S3-compatible bucket when S3_BUCKET is set.
  UPLOAD_DIR: z.string().min(1).default('data/uploads'),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(100 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  S3_BUCKET: z.string().min(3).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  // Every stored file is encrypted at rest (decision 0043) under a data key of its own, wrapped by this
  // master key: 32 random bytes in base64 (`openssl rand -base64 32`), inline or as a file (…_FILE).
  // Unset in dev/demo/test: a published development key; required in prod. FILE_ENCRYPTION_KEY_OLD:
  // the key being rotated away from (still read until `npm run keys:rotate` is done). Never logged.
  FILE_ENCRYPTION_KEY: z.string().min(1).optional(),
  FILE_ENCRYPTION_KEY_FILE: z.string().min(1).optional(),
  FILE_ENCRYPTION_KEY_OLD: z.string().min(1).optional(),
  // Payments: the provider each channel's new trades go to (server/modules/payment/registry.ts);
  // the sandbox (WeChat Pay / Alipay style, no merchant account) by default.
  PAYMENT_WECHAT_PROVIDER: z.enum(['sandbox', 'wechatpay']).default('sandbox'),
  PAYMENT_ALIPAY_PROVIDER: z.enum(['sandbox', 'alipay']).default('sandbox'),
  PAYMENT_SANDBOX_SECRET: z.string().min(16).default(DEV_PAYMENT_SANDBOX_SECRET),
  /** How long the sandbox waits after "paying" before it sends the notification. */
  PAYMENT_SANDBOX_NOTIFY_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(800),
  /** The sandbox lets anyone "pay" without money: production refuses it unless this says otherwise (a staging site). */
  PAYMENT_SANDBOX_IN_PROD: flag.default(false),
  // WeChat Pay APIv3 (PAYMENT_WECHAT_PROVIDER=wechatpay, decision 0036): 商户号, the APPID bound to it, the
  // merchant API certificate's serial number and private key, the APIv3 key, and WeChat Pay's public key
  // and its id (PUB_KEY_ID_…); each secret inline or as a file (…_FILE). Never logged.
  WECHATPAY_MCHID: z
    .string()
    .regex(/^\d{6,32}$/, 'must be the digits of the merchant id (商户号)')
    .optional(),
  WECHATPAY_APPID: z
    .string()
    .regex(/^[A-Za-z0-9_]{6,32}$/)
    .optional(),
  WECHATPAY_MERCHANT_SERIAL: z
    .string()
    .regex(/^[0-9A-Fa-f]{8,64}$/, 'must be the merchant API certificate serial number (hex)')
    .optional(),
  WECHATPAY_PRIVATE_KEY: z.string().min(64).optional(),
  WECHATPAY_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  WECHATPAY_APIV3_KEY: z.string().length(32, 'must be the 32-character APIv3 key').optional(),
  WECHATPAY_APIV3_KEY_FILE: z.string().min(1).optional(),
  WECHATPAY_PLATFORM_PUBLIC_KEY: z.string().min(64).optional(),
  WECHATPAY_PLATFORM_PUBLIC_KEY_FILE: z.string().min(1).optional(),
  WECHATPAY_PLATFORM_PUBLIC_KEY_ID: z.string().min(4).max(64).optional(),
  /** WeChat Pay's API (the local fake's address in tests). */
  WECHATPAY_BASE_URL: z.url().default('https://api.mch.weixin.qq.com'),
  /** A call to WeChat Pay not answered by then is abandoned (outcome unknown: asked again with the same number). */
  WECHATPAY_TIMEOUT_MS: z.coerce.number().int().min(200).max(60_000).default(10_000),
  // Alipay (PAYMENT_ALIPAY_PROVIDER=alipay, decision 0037): the app id, the app's private key and
  // Alipay's public key — inline or as a file (…_FILE) — or, in certificate mode, the three certificate files.
  ALIPAY_APP_ID: z
    .string()
    .regex(/^\d{8,32}$/, 'must be the digits of the Alipay app id (APPID)')
    .optional(),
  ALIPAY_APP_PRIVATE_KEY: z.string().min(64).optional(),
  ALIPAY_APP_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  ALIPAY_PUBLIC_KEY: z.string().min(64).optional(),
  ALIPAY_PUBLIC_KEY_FILE: z.string().min(1).optional(),
  ALIPAY_APP_CERT_FILE: z.string().min(1).optional(),
  ALIPAY_PUBLIC_CERT_FILE: z.string().min(1).optional(),
  ALIPAY_ROOT_CERT_FILE: z.string().min(1).optional(),
  /** Alipay's OpenAPI gateway (its sandbox: https://openapi-sandbox.dl.alipaydev.com/gateway.do). */
  ALIPAY_GATEWAY: z.url().default('https://openapi.alipay.com/gateway.do'),
  /** A call to Alipay not answered by then is abandoned (outcome unknown: asked again with the same number). */
  ALIPAY_TIMEOUT_MS: z.coerce.number().int().min(200).max(60_000).default(10_000),
  // Travellers' SMS (issue 29, decision 0046): the sandbox (JSON files in SMS_OUTBOX_DIR, the default) or Alibaba Cloud SMS.
  SMS_PROVIDER: z.enum(['sandbox', 'aliyun']).default('sandbox'),
  SMS_OUTBOX_DIR: z.string().min(1).default('data/sms-outbox'),
  /** SMS to one number: at most this many in any hour and in any day (the rest wait). */
  SMS_RATE_PER_HOUR: z.coerce.number().int().min(1).max(100).default(5),
  SMS_RATE_PER_DAY: z.coerce.number().int().min(1).max(1000).default(10),
  /** The secret path segment of the reply (上行短信) push URL: POST /sms/reply/<token>; unset: no reply endpoint. */
  SMS_REPLY_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().min(8).optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().min(8).optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET_FILE: z.string().min(1).optional(),
  /** 短信签名, as approved in the Alibaba Cloud console. */
  ALIYUN_SMS_SIGN_NAME: z.string().min(2).max(12).optional(),
  /** The approved template codes: "appointment=SMS_1,appointment_change=SMS_2,page_check=SMS_3,result_issued=SMS_4,result_rejected=SMS_5,ship_back=SMS_6". */
  ALIYUN_SMS_TEMPLATES: z.string().min(1).optional(),
  ALIYUN_SMS_ENDPOINT: z.url().default('https://dysmsapi.aliyuncs.com/'),
  ALIYUN_SMS_TIMEOUT_MS: z.coerce.number().int().min(200).max(60_000).default(10_000),
  // Couriers: the sandbox (SF Express open platform style, the default) or SF Express's open platform itself (decision 0039).
  COURIER_PROVIDER: z.enum(['sandbox', 'sf']).default('sandbox'),
  /** SF's gateway: its sandbox (sfapi-sbox) by default; production is https://bspgw.sf-express.com/std/service. */
  SF_API_URL: z.url().default('https://sfapi-sbox.sf-express.com/std/service'),
  /** 顾客编码 (partnerID) of the SF account; its 校验码 is SF_CHECK_WORD or the file SF_CHECK_WORD_FILE names. */
  SF_PARTNER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_]{4,64}$/)
    .optional(),
  SF_CHECK_WORD: z.string().min(16).optional(),
  SF_CHECK_WORD_FILE: z.string().min(1).optional(),
  /** 月结卡号: the monthly account every pickup is billed to. */
  SF_MONTHLY_CARD: z
    .string()
    .regex(/^\d{6,20}$/, 'must be the digits of the monthly account (月结卡号)')
    .optional(),
  /** A call to SF not answered by then is abandoned (a create is then asked again with the same orderId). */
  SF_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
  /** A parcel not delivered this many days after it was booked or sent is listed as needing attention (物流异常). */
  COURIER_ATTENTION_DAYS: z.coerce.number().int().min(1).max(60).default(5),
  /** SF's 顾客编码 (partnerID) the sandbox's pushes carry, and its 校验码 (check word) that signs them. */
  COURIER_SANDBOX_PARTNER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_]{4,64}$/)
    .default('YQT_SANDBOX'),
  COURIER_SANDBOX_CHECK_WORD: z.string().min(16).default(DEV_COURIER_SANDBOX_CHECK_WORD),
  /** Time between two tracking events of a sandbox parcel (揽收 → … → 签收 is five steps). */
  COURIER_SANDBOX_STEP_MS: z.coerce.number().int().min(0).max(86_400_000).default(4_000),
  /** Share of the sandbox's pushes it sends twice (exercises idempotency). */
  COURIER_SANDBOX_DUPLICATE_RATE: z.coerce.number().min(0).max(1).default(0.25),
  /** The sandbox books no courier: production refuses it unless this says otherwise (a staging site). */
  COURIER_SANDBOX_IN_PROD: flag.default(false),
  /** A tracked parcel without a tracking event this long is asked about (the query fallback). */
  COURIER_QUERY_AFTER_MS: z.coerce
    .number()
    .int()
    .min(10_000)
    .max(7 * 86_400_000)
    .default(600_000),
  // Retention of travellers' data (issue 11, server/modules/retention): uploaded scans are deleted
  // this many days after the order became completed or refunded; the job runs every N minutes (0: never, the CLI only).
  RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** The API reference (/docs/api, /docs/openapi.json): on everywhere but prod, where it takes API_DOCS=1. */
  API_DOCS: flag.optional(),
  RETENTION_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
  // Operations (issue 23): GET /metrics answers a loopback caller no proxy forwarded, or one with `Authorization: Bearer <METRICS_TOKEN>`.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

export type RawConfig = z.infer<typeof schema>;

export interface AppConfig extends Omit<RawConfig, 'HOST' | 'PUBLIC_SITE_URL'> {
  HOST: string;
  PUBLIC_SITE_URL: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  webClient: { platform: string; accessKey: string; secret: string };
  /** Whether the API reference is served (API_DOCS, or any APP_ENV but prod). */
  apiDocs: boolean;
  /** The master keys of stored files (FILE_ENCRYPTION_KEY, …_OLD; the development key when unset outside prod). */
  fileKeyring: FileKeyring;
}

export class ConfigError extends Error {}

/** A secret from VAR, or read from the file VAR_FILE names (trailing newline dropped); never logged. */
function secretFrom(env: Record<string, string | undefined>, name: string, inline: string | undefined): string | undefined {
  const file = env[`${name}_FILE`];
  if (inline !== undefined && file !== undefined) throw new ConfigError(`Invalid configuration:\n  ${name}: set ${name} or ${name}_FILE, not both`);
  if (file === undefined) return inline;
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch {
    throw new ConfigError(`Invalid configuration:\n  ${name}_FILE: cannot read ${file}`);
  }
  if (text.length < 16) throw new ConfigError(`Invalid configuration:\n  ${name}_FILE: the check word in ${file} is shorter than 16 characters`);
  return text;
}

/** FILE_ENCRYPTION_KEY (or its file) and FILE_ENCRYPTION_KEY_OLD as a keyring; a bad or (in prod) missing key stops the start. */
function fileKeyringOf(env: Record<string, string | undefined>, raw: RawConfig): FileKeyring {
  const hint = '32 random bytes in base64, e.g. the output of `openssl rand -base64 32`';
  const text = secretFrom(env, 'FILE_ENCRYPTION_KEY', raw.FILE_ENCRYPTION_KEY);
  const key = text === undefined ? null : parseMasterKey(text);
  if (text !== undefined && key === null) throw new ConfigError(`Invalid configuration:\n  FILE_ENCRYPTION_KEY: must be ${hint}`);
  if (raw.APP_ENV === 'prod' && key === null) {
    throw new ConfigError(`Invalid configuration:\n  FILE_ENCRYPTION_KEY (or FILE_ENCRYPTION_KEY_FILE): must be set in production, ${hint}`);
  }
  if (raw.APP_ENV === 'prod' && key?.equals(DEVELOPMENT_FILE_KEY)) {
    throw new ConfigError('Invalid configuration:\n  FILE_ENCRYPTION_KEY: the published development key encrypts nothing in production; set a key of its own');
  }
  const oldKey = raw.FILE_ENCRYPTION_KEY_OLD === undefined ? null : parseMasterKey(raw.FILE_ENCRYPTION_KEY_OLD);
  if (raw.FILE_ENCRYPTION_KEY_OLD !== undefined && oldKey === null) throw new ConfigError(`Invalid configuration:\n  FILE_ENCRYPTION_KEY_OLD: must be ${hint}`);
  return fileKeyring(key, oldKey);
}

/** The payment channels whose new trades go to the sandbox (by their setting's name). */
export function paymentSandboxChannels(config: { PAYMENT_WECHAT_PROVIDER: string; PAYMENT_ALIPAY_PROVIDER: string }): string[] {
  return (['PAYMENT_WECHAT_PROVIDER', 'PAYMENT_ALIPAY_PROVIDER'] as const).filter((key) => config[key] === 'sandbox');
}

/** The development pairs of DEV_API_CLIENTS. */
function parseDevPairs(): Array<{ accessKey: string; secret: string }> {
  return DEV_API_CLIENTS.split(',').map((entry) => {
    const [, accessKey = '', ...secret] = entry.split(':');
    return { accessKey, secret: secret.join(':') };
  });
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every variable.`);
  }
  const raw = parsed.data;
  raw.SF_CHECK_WORD = secretFrom(env, 'SF_CHECK_WORD', raw.SF_CHECK_WORD);
  if (raw.COURIER_PROVIDER === 'sf') {
    const missing = [
      raw.SF_PARTNER_ID ? null : 'SF_PARTNER_ID',
      raw.SF_CHECK_WORD ? null : 'SF_CHECK_WORD (or SF_CHECK_WORD_FILE)',
      raw.SF_MONTHLY_CARD ? null : 'SF_MONTHLY_CARD',
    ].filter((name): name is string => name !== null);
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n  COURIER_PROVIDER=sf needs ${missing.join(', ')} (see .env.example)`);
  }
  raw.ALIYUN_SMS_ACCESS_KEY_SECRET = secretFrom(env, 'ALIYUN_SMS_ACCESS_KEY_SECRET', raw.ALIYUN_SMS_ACCESS_KEY_SECRET);
  if (raw.SMS_PROVIDER === 'aliyun') {
    const templates = parseTemplateCodes(raw.ALIYUN_SMS_TEMPLATES ?? '');
    const missing = [
      raw.ALIYUN_SMS_ACCESS_KEY_ID ? null : 'ALIYUN_SMS_ACCESS_KEY_ID',
      raw.ALIYUN_SMS_ACCESS_KEY_SECRET ? null : 'ALIYUN_SMS_ACCESS_KEY_SECRET (or _FILE)',
      raw.ALIYUN_SMS_SIGN_NAME ? null : 'ALIYUN_SMS_SIGN_NAME',
      ...Object.keys(TRAVELLER_TEMPLATES)
        .filter((key) => !templates[key])
        .map((key) => `ALIYUN_SMS_TEMPLATES ${key}=<模板CODE>`),
    ].filter((name): name is string => name !== null);
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n  SMS_PROVIDER=aliyun needs ${missing.join(', ')} (see .env.example)`);
  }
  if (raw.PAYMENT_ALIPAY_PROVIDER === 'alipay') {
    const certFiles = [raw.ALIPAY_APP_CERT_FILE, raw.ALIPAY_PUBLIC_CERT_FILE, raw.ALIPAY_ROOT_CERT_FILE];
    const certMode = certFiles.some(Boolean);
    const missing = [
      raw.ALIPAY_APP_ID ? null : 'ALIPAY_APP_ID',
      raw.ALIPAY_APP_PRIVATE_KEY || raw.ALIPAY_APP_PRIVATE_KEY_FILE ? null : 'ALIPAY_APP_PRIVATE_KEY (or ALIPAY_APP_PRIVATE_KEY_FILE)',
      certMode && certFiles.some((file) => !file)
        ? 'ALIPAY_APP_CERT_FILE, ALIPAY_PUBLIC_CERT_FILE and ALIPAY_ROOT_CERT_FILE (certificate mode needs all three)'
        : null,
      certMode || raw.ALIPAY_PUBLIC_KEY || raw.ALIPAY_PUBLIC_KEY_FILE ? null : 'ALIPAY_PUBLIC_KEY (or ALIPAY_PUBLIC_KEY_FILE, or the certificate files)',
    ].filter((name): name is string => name !== null);
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n  PAYMENT_ALIPAY_PROVIDER=alipay needs ${missing.join(', ')} (see .env.example)`);
  }
  if (raw.PAYMENT_WECHAT_PROVIDER === 'wechatpay') {
    const missing = [
      raw.WECHATPAY_MCHID ? null : 'WECHATPAY_MCHID',
      raw.WECHATPAY_APPID ? null : 'WECHATPAY_APPID',
      raw.WECHATPAY_MERCHANT_SERIAL ? null : 'WECHATPAY_MERCHANT_SERIAL',
      raw.WECHATPAY_PRIVATE_KEY || raw.WECHATPAY_PRIVATE_KEY_FILE ? null : 'WECHATPAY_PRIVATE_KEY (or _FILE)',
      raw.WECHATPAY_APIV3_KEY || raw.WECHATPAY_APIV3_KEY_FILE ? null : 'WECHATPAY_APIV3_KEY (or _FILE)',
      raw.WECHATPAY_PLATFORM_PUBLIC_KEY || raw.WECHATPAY_PLATFORM_PUBLIC_KEY_FILE ? null : 'WECHATPAY_PLATFORM_PUBLIC_KEY (or _FILE)',
      raw.WECHATPAY_PLATFORM_PUBLIC_KEY_ID ? null : 'WECHATPAY_PLATFORM_PUBLIC_KEY_ID',
    ].filter((name): name is string => name !== null);
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n  PAYMENT_WECHAT_PROVIDER=wechatpay needs ${missing.join(', ')} (see .env.example)`);
  }
  const web = raw.API_CLIENTS.get(raw.WEB_PLATFORM);
  if (!web) {
    throw new ConfigError(`Invalid configuration:\n  API_CLIENTS: has no entry for WEB_PLATFORM=${raw.WEB_PLATFORM}`);
  }
  if (raw.APP_ENV === 'prod' && env.API_CLIENTS === undefined) {
    throw new ConfigError('Invalid configuration:\n  API_CLIENTS: must be set in production (the development pair is public)');
  }
  const sandboxChannels = paymentSandboxChannels(raw);
  if (raw.APP_ENV === 'prod' && sandboxChannels.length > 0 && !raw.PAYMENT_SANDBOX_IN_PROD) {
    throw new ConfigError(
      `Invalid configuration:\n  ${sandboxChannels.join(', ')}: the sandbox takes no money; configure a real provider for production (or PAYMENT_SANDBOX_IN_PROD=true for a staging site)`,
    );
  }
  if (raw.APP_ENV === 'prod' && raw.COURIER_PROVIDER === 'sandbox' && !raw.COURIER_SANDBOX_IN_PROD) {
    throw new ConfigError(
      'Invalid configuration:\n  COURIER_PROVIDER: the sandbox books no courier; configure a real provider for production (or COURIER_SANDBOX_IN_PROD=true for a staging site)',
    );
  }
  if (raw.APP_ENV === 'prod') {
    // Secrets that are public (they are in .env.example and this file) sign nothing in production.
    const devSecrets = new Set([...parseDevPairs()].map((pair) => pair.secret));
    const devKeys = new Set([...parseDevPairs()].map((pair) => pair.accessKey));
    for (const [platform, client] of raw.API_CLIENTS) {
      if (devSecrets.has(client.secret) || devKeys.has(client.accessKey)) {
        throw new ConfigError(
          `Invalid configuration:\n  API_CLIENTS: platform ${platform} uses the development pair published in .env.example; set a production access key and secret`,
        );
      }
    }
    if (sandboxChannels.length > 0 && raw.PAYMENT_SANDBOX_SECRET === DEV_PAYMENT_SANDBOX_SECRET) {
      throw new ConfigError('Invalid configuration:\n  PAYMENT_SANDBOX_SECRET: the sandbox in production needs a secret of its own, not the published default');
    }
    if (raw.COURIER_PROVIDER === 'sandbox' && raw.COURIER_SANDBOX_CHECK_WORD === DEV_COURIER_SANDBOX_CHECK_WORD) {
      throw new ConfigError(
        'Invalid configuration:\n  COURIER_SANDBOX_CHECK_WORD: the sandbox in production needs a check word of its own, not the published default',
      );
    }
  }
  const keyring = fileKeyringOf(env, raw);
  return {
    ...raw,
    fileKeyring: keyring,
    HOST: raw.HOST ?? (raw.APP_ENV === 'dev' || raw.APP_ENV === 'test' ? '127.0.0.1' : '0.0.0.0'),
    PUBLIC_SITE_URL: raw.PUBLIC_SITE_URL ?? `http://localhost:${raw.PORT}`,
    database: raw.DATABASE_URL ? { kind: 'postgres', url: raw.DATABASE_URL } : { kind: 'sqlite', file: raw.SQLITE_FILE },
    webClient: { platform: raw.WEB_PLATFORM, ...web },
    apiDocs: raw.API_DOCS ?? raw.APP_ENV !== 'prod',
  };
}
