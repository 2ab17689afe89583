// System config and the address library (spec §3, §7). The config is fetched
// once; concurrent callers share the one request. The address library is kept
// in localStorage and reused while its URL is unchanged and key 86 exists.
import type { SysConfig } from '../../common/contracts/system';
import { ADDRESS_ROOT_REGION, STORAGE_KEYS } from '../../common/constants';
import { api } from './api-client';

export type AddressLibrary = Record<string, Record<string, string>>;

let configRequest: Promise<SysConfig> | null = null;

export function getSysConfig(): Promise<SysConfig> {
  configRequest ??= api('/www/sys_config_get').catch((error: unknown) => {
    configRequest = null; // a failure is not cached: the next caller retries
    throw error;
  });
  return configRequest;
}

function readStoredLibrary(url: string): AddressLibrary | null {
  try {
    if (localStorage.getItem(STORAGE_KEYS.addressLibraryFileUrl) !== url) return null;
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEYS.addressLibraryJson) ?? 'null') as AddressLibrary | null;
    return stored && typeof stored === 'object' && stored[ADDRESS_ROOT_REGION] ? stored : null;
  } catch {
    return null;
  }
}

let libraryRequest: Promise<AddressLibrary> | null = null;

export function getAddressLibrary(): Promise<AddressLibrary> {
  libraryRequest ??= (async () => {
    const { addr_download_url: url } = await getSysConfig();
    const stored = readStoredLibrary(url);
    if (stored) return stored;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`address library: HTTP ${response.status}`);
    const library = (await response.json()) as AddressLibrary;
    try {
      localStorage.setItem(STORAGE_KEYS.addressLibraryJson, JSON.stringify(library));
      localStorage.setItem(STORAGE_KEYS.addressLibraryFileUrl, url);
    } catch {
      // Storage full or disabled: the library still works for this page view.
    }
    return library;
  })().catch((error: unknown) => {
    libraryRequest = null;
    throw error;
  });
  return libraryRequest;
}
