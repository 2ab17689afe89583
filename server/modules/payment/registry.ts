// The app's payment providers. A new trade goes to the provider its channel
// is configured with (PAYMENT_WECHAT_PROVIDER / PAYMENT_ALIPAY_PROVIDER);
// anything about an existing payment or refund — query, close, refund,
// notification — goes to the provider named in payment.provider, so turning
// a channel from the sandbox to the real company leaves the sandbox's open
// payments settled by the sandbox.
import type { PaymentChannel } from '../../../common/ordering.ts';
import type { PaymentProvider } from './provider.ts';

export interface PaymentProviders {
  /** The provider new trades of this channel go to. */
  forChannel(channel: PaymentChannel): PaymentProvider;
  /** A provider by the name stored in payment.provider; undefined when it is no longer configured. */
  byName(name: string): PaymentProvider | undefined;
  /** Every configured provider, once each (their notification routes). */
  all(): readonly PaymentProvider[];
}

export function createProviderRegistry(providers: readonly PaymentProvider[], channels: Record<PaymentChannel, string>): PaymentProviders {
  const byName = new Map<string, PaymentProvider>();
  for (const provider of providers) {
    if (!/^[a-z][a-z0-9-]{1,30}$/.test(provider.name)) throw new Error(`payment provider name ${provider.name} is not a path segment`);
    if (byName.has(provider.name)) throw new Error(`payment provider ${provider.name} is registered twice`);
    byName.set(provider.name, provider);
  }
  for (const [channel, name] of Object.entries(channels)) {
    if (!byName.has(name)) throw new Error(`payment channel ${channel} names provider ${name}, which is not configured`);
  }
  return {
    forChannel: (channel) => byName.get(channels[channel])!,
    byName: (name) => byName.get(name),
    all: () => [...byName.values()],
  };
}
