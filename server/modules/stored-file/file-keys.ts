// The master keys of stored files (decision 0043): FILE_ENCRYPTION_KEY (or the
// file FILE_ENCRYPTION_KEY_FILE names) wraps every file's own data key;
// FILE_ENCRYPTION_KEY_OLD is the key being rotated away from, still accepted
// for reading until `npm run keys:rotate` has re-wrapped everything. A key is
// known by its id (a hash of it), written into each file's header, so a reader
// picks the right one without trying both. Keys are never logged: only ids.
import { createHash } from 'node:crypto';

export const MASTER_KEY_BYTES = 32;

/**
 * Used in dev, demo and test when no key is configured: it is published here,
 * so it protects nothing, and APP_ENV=prod refuses to start without a key of its own.
 */
export const DEVELOPMENT_FILE_KEY = createHash('sha256').update('visa-platform development file key: public, never for production').digest();

export interface MasterKey {
  /** 8 bytes: the first bytes of a hash of the key (not reversible, and no key is derived from it). */
  id: Buffer;
  key: Buffer;
}

export interface FileKeyring {
  /** Wraps every new data key. */
  current: MasterKey;
  /** Also accepted for reading (a rotation in progress). */
  old: MasterKey | null;
  /** The published development key is in use (no key configured). */
  development: boolean;
}

export function masterKeyId(key: Buffer): Buffer {
  return createHash('sha256').update('visa-file-master-key-id\0').update(key).digest().subarray(0, 8);
}

export function masterKey(key: Buffer): MasterKey {
  return { id: masterKeyId(key), key };
}

/** 32 bytes in standard base64 (44 characters, `openssl rand -base64 32`), else null. */
export function parseMasterKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]{43}=$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === MASTER_KEY_BYTES ? key : null;
}

/** The keyring for a key (or the development key) and the old one of a rotation. */
export function fileKeyring(key: Buffer | null, oldKey: Buffer | null = null): FileKeyring {
  const current = masterKey(key ?? DEVELOPMENT_FILE_KEY);
  return { current, old: oldKey && !oldKey.equals(current.key) ? masterKey(oldKey) : null, development: key === null };
}

/** The master key a header's key id names, or null (a key this server does not have). */
export function keyById(keyring: FileKeyring, id: Buffer): MasterKey | null {
  if (keyring.current.id.equals(id)) return keyring.current;
  if (keyring.old?.id.equals(id)) return keyring.old;
  return null;
}
