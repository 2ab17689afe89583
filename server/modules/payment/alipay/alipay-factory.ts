// The Alipay provider as the configuration builds it (provider-factories.ts,
// PAYMENT_ALIPAY_PROVIDER=alipay): keys from ALIPAY_* (inline or files), the
// gateway and timeout, our notification URL, and the refund → trade lookup
// Alipay's refund query needs.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { PaymentProvider } from '../provider.ts';
import { alipayKeysFrom, type AlipaySettings } from './alipay-config.ts';
import { ALIPAY_PROVIDER, createAlipayProvider } from './alipay-provider.ts';

export function alipayFromConfig(context: { config: AlipaySettings & { PUBLIC_SITE_URL: string }; db: Kysely<Database>; now: () => number }): PaymentProvider {
  const { config, db, now } = context;
  const site = config.PUBLIC_SITE_URL.replace(/\/+$/, '');
  return createAlipayProvider({
    ...alipayKeysFrom(config),
    notifyUrl: `${site}/pay/notify/${ALIPAY_PROVIDER}`,
    now,
    async tradeOfRefund(outRefundNo) {
      const row = await db.selectFrom('refund').select('out_trade_no').where('out_refund_no', '=', outRefundNo).executeTakeFirst();
      return row?.out_trade_no ?? null;
    },
  }).provider;
}
