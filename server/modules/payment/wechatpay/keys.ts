// The merchant's WeChat Pay keys from the configuration: each secret inline
// (WECHATPAY_…) or from the file WECHATPAY_…_FILE names (a PEM, or the APIv3
// key's 32 characters). Read once at start-up; a missing or unreadable key
// stops the start with the variable's name — never the key itself.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AppConfig } from '../../../config.ts';
import type { WechatPayKeys } from './client.ts';

type WechatPayConfig = Pick<
  AppConfig,
  | 'WECHATPAY_MCHID'
  | 'WECHATPAY_APPID'
  | 'WECHATPAY_MERCHANT_SERIAL'
  | 'WECHATPAY_PRIVATE_KEY'
  | 'WECHATPAY_PRIVATE_KEY_FILE'
  | 'WECHATPAY_APIV3_KEY'
  | 'WECHATPAY_APIV3_KEY_FILE'
  | 'WECHATPAY_PLATFORM_PUBLIC_KEY'
  | 'WECHATPAY_PLATFORM_PUBLIC_KEY_FILE'
  | 'WECHATPAY_PLATFORM_PUBLIC_KEY_ID'
>;

function secret(name: string, inline: string | undefined, file: string | undefined): string {
  if (inline && file) throw new Error(`WeChat Pay: set ${name} or ${name}_FILE, not both`);
  if (inline) return inline.replace(/\\n/g, '\n');
  if (!file) throw new Error(`WeChat Pay: ${name} (or ${name}_FILE) is not set`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new Error(`WeChat Pay: ${name}_FILE cannot be read (${file})`);
  }
}

function required(name: string, value: string | undefined): string {
  if (!value) throw new Error(`WeChat Pay: ${name} is not set`);
  return value;
}

export function wechatPayKeysFrom(config: WechatPayConfig): WechatPayKeys {
  const privatePem = secret('WECHATPAY_PRIVATE_KEY', config.WECHATPAY_PRIVATE_KEY, config.WECHATPAY_PRIVATE_KEY_FILE);
  const publicPem = secret('WECHATPAY_PLATFORM_PUBLIC_KEY', config.WECHATPAY_PLATFORM_PUBLIC_KEY, config.WECHATPAY_PLATFORM_PUBLIC_KEY_FILE);
  const apiV3Key = secret('WECHATPAY_APIV3_KEY', config.WECHATPAY_APIV3_KEY, config.WECHATPAY_APIV3_KEY_FILE).trim();
  if (Buffer.byteLength(apiV3Key) !== 32) throw new Error('WeChat Pay: the APIv3 key must be 32 bytes');
  let merchantPrivateKey;
  let platformPublicKey;
  try {
    merchantPrivateKey = createPrivateKey(privatePem);
  } catch {
    throw new Error('WeChat Pay: WECHATPAY_PRIVATE_KEY is not a PEM private key (apiclient_key.pem)');
  }
  try {
    platformPublicKey = createPublicKey(publicPem);
  } catch {
    throw new Error('WeChat Pay: WECHATPAY_PLATFORM_PUBLIC_KEY is not a PEM public key (pub_key.pem)');
  }
  return {
    mchid: required('WECHATPAY_MCHID', config.WECHATPAY_MCHID),
    appid: required('WECHATPAY_APPID', config.WECHATPAY_APPID),
    merchantSerial: required('WECHATPAY_MERCHANT_SERIAL', config.WECHATPAY_MERCHANT_SERIAL).toUpperCase(),
    merchantPrivateKey,
    apiV3Key: Buffer.from(apiV3Key, 'utf8'),
    platformPublicKey,
    platformPublicKeyId: required('WECHATPAY_PLATFORM_PUBLIC_KEY_ID', config.WECHATPAY_PLATFORM_PUBLIC_KEY_ID),
  };
}
