// Spec §7's signature headers for one call by the development client pair
// (platform 4, what a server without API_CLIENTS accepts), with the session
// token if any: for the end-to-end specs and the benchmarks that call the API
// directly. One place, so a change to the signature reaches both.
import { API_VERSION } from '../../common/constants.ts';
import { newRequestId, signRequest } from '../../common/signing.ts';
import { DEV_API_CLIENTS } from '../config.ts';

const [, ACCESS_KEY, SECRET] = DEV_API_CLIENTS.split(':') as [string, string, string];

export function devSignedHeaders(token?: string): Record<string, string> {
  const date = new Date().toUTCString();
  const requestId = newRequestId();
  return {
    'x-version': API_VERSION,
    'x-date': date,
    'x-request-id': requestId,
    platform: '4',
    authorization: `Basic ${signRequest({ accessKey: ACCESS_KEY, date, version: API_VERSION, requestId }, SECRET)}`,
    ...(token ? { 'x-token': token } : {}),
  };
}
