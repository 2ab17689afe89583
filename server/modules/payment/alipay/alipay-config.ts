// The Alipay settings (documented in .env.example and docs/deploy.md): the
// app id, the app's private key and Alipay's public key — or, in certificate
// mode, the three certificates — each given inline (ALIPAY_…) or as a file
// (ALIPAY_…_FILE). Keys are read here once and never logged: a bad one is
// named by its variable, never shown.
import { readFileSync } from 'node:fs';
import { ALIPAY_GATEWAY, type AlipayKeys } from './alipay-provider.ts';

export interface AlipaySettings {
  ALIPAY_APP_ID?: string;
  ALIPAY_APP_PRIVATE_KEY?: string;
  ALIPAY_APP_PRIVATE_KEY_FILE?: string;
  ALIPAY_PUBLIC_KEY?: string;
  ALIPAY_PUBLIC_KEY_FILE?: string;
  ALIPAY_APP_CERT_FILE?: string;
  ALIPAY_PUBLIC_CERT_FILE?: string;
  ALIPAY_ROOT_CERT_FILE?: string;
  ALIPAY_GATEWAY?: string;
  ALIPAY_TIMEOUT_MS?: number;
}

export class AlipaySettingsError extends Error {}

function inlineOrFile(settings: AlipaySettings, name: 'ALIPAY_APP_PRIVATE_KEY' | 'ALIPAY_PUBLIC_KEY'): string | undefined {
  const inline = settings[name];
  const file = settings[`${name}_FILE`];
  if (inline && file) throw new AlipaySettingsError(`${name}: set ${name} or ${name}_FILE, not both`);
  return inline ?? (file ? readSecret(file, `${name}_FILE`) : undefined);
}

function readSecret(path: string, variable: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    throw new AlipaySettingsError(`${variable}: cannot read ${path}`);
  }
}

/** The keys and gateway PAYMENT_ALIPAY_PROVIDER=alipay needs; throws naming what is missing. */
export function alipayKeysFrom(settings: AlipaySettings): AlipayKeys & { gateway: string; timeoutMs: number } {
  const missing: string[] = [];
  if (!settings.ALIPAY_APP_ID) missing.push('ALIPAY_APP_ID');
  const privateKey = inlineOrFile(settings, 'ALIPAY_APP_PRIVATE_KEY');
  if (!privateKey) missing.push('ALIPAY_APP_PRIVATE_KEY (or ALIPAY_APP_PRIVATE_KEY_FILE)');
  const certFiles = [settings.ALIPAY_APP_CERT_FILE, settings.ALIPAY_PUBLIC_CERT_FILE, settings.ALIPAY_ROOT_CERT_FILE];
  const certMode = certFiles.some(Boolean);
  const alipayPublicKey = inlineOrFile(settings, 'ALIPAY_PUBLIC_KEY');
  if (certMode && certFiles.some((file) => !file))
    missing.push('ALIPAY_APP_CERT_FILE, ALIPAY_PUBLIC_CERT_FILE and ALIPAY_ROOT_CERT_FILE (certificate mode needs all three)');
  if (!certMode && !alipayPublicKey) missing.push('ALIPAY_PUBLIC_KEY (or ALIPAY_PUBLIC_KEY_FILE, or the certificate files)');
  if (missing.length > 0) throw new AlipaySettingsError(`PAYMENT_ALIPAY_PROVIDER=alipay needs ${missing.join(', ')} (see .env.example)`);
  return {
    appId: settings.ALIPAY_APP_ID!,
    privateKey: privateKey!,
    ...(certMode
      ? {
          certificates: {
            appCert: readSecret(settings.ALIPAY_APP_CERT_FILE!, 'ALIPAY_APP_CERT_FILE'),
            alipayPublicCert: readSecret(settings.ALIPAY_PUBLIC_CERT_FILE!, 'ALIPAY_PUBLIC_CERT_FILE'),
            alipayRootCert: readSecret(settings.ALIPAY_ROOT_CERT_FILE!, 'ALIPAY_ROOT_CERT_FILE'),
          },
        }
      : { alipayPublicKey }),
    gateway: settings.ALIPAY_GATEWAY ?? ALIPAY_GATEWAY,
    timeoutMs: settings.ALIPAY_TIMEOUT_MS ?? 10_000,
  };
}
