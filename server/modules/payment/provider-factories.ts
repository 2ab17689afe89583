// Builds the payment providers the configuration names: each channel's
// setting (PAYMENT_WECHAT_PROVIDER, PAYMENT_ALIPAY_PROVIDER) names one
// provider; each named provider is built once, even when both channels use
// it (the sandbox). A real company's provider lives in its own folder
// (wechatpay/, alipay/) and reads its keys from the configuration here.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { PaymentChannel } from '../../../common/ordering.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { PaymentProvider } from './provider.ts';
import type { SandboxProvider } from './sandbox-provider.ts';
import { wechatPayKeysFrom } from './wechatpay/keys.ts';
import { createWechatPayProvider } from './wechatpay/provider.ts';
import { alipayFromConfig } from './alipay/alipay-factory.ts';

export interface ProviderContext {
  config: AppConfig;
  db: Kysely<Database>;
  now: () => number;
  log: FastifyBaseLogger;
  /** Built in any case (tests reach it); used when a channel names 'sandbox'. */
  sandbox: SandboxProvider;
}

/** The names a channel's setting may take, and how each provider is built. */
const FACTORIES: Record<AppConfig['PAYMENT_WECHAT_PROVIDER'] | AppConfig['PAYMENT_ALIPAY_PROVIDER'], (context: ProviderContext) => PaymentProvider> = {
  sandbox: (context) => context.sandbox.provider,
  wechatpay: ({ config, now, log }) =>
    createWechatPayProvider({
      keys: wechatPayKeysFrom(config),
      baseUrl: config.WECHATPAY_BASE_URL,
      timeoutMs: config.WECHATPAY_TIMEOUT_MS,
      siteUrl: config.PUBLIC_SITE_URL,
      now,
      log,
    }),
  alipay: alipayFromConfig,
};

export function createConfiguredProviders(context: ProviderContext): { providers: PaymentProvider[]; channels: Record<PaymentChannel, string> } {
  const channels: Record<PaymentChannel, string> = {
    wechat: context.config.PAYMENT_WECHAT_PROVIDER,
    alipay: context.config.PAYMENT_ALIPAY_PROVIDER,
  };
  const built = new Map<string, PaymentProvider>();
  for (const name of Object.values(channels)) {
    if (built.has(name)) continue;
    const provider = FACTORIES[name as keyof typeof FACTORIES](context);
    built.set(provider.name, provider);
  }
  return { providers: [...built.values()], channels };
}
