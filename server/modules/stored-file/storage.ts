// Where stored files live. Every kind of stored file only ever sees this
// interface: a folder on local disk by default (storage-local.ts, outside the
// web root), or an S3-compatible bucket when S3_BUCKET is set (storage-s3.ts);
// open-storage.ts picks one from the configuration. Both implementations import
// this file and nothing imports them back. Keys are made here, from random
// bytes: never from anything the client sent (file names stay in the database).
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface StoredObject {
  /** The object's bytes, or only those of the range asked for. */
  body: Readable;
  /** Bytes of the whole object (not of the range), when the store knows it up front. */
  size: number | null;
}

/** Bytes start … end of an object, both included (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** An object open for reads at any position (local disk). */
export interface RandomAccessObject {
  /** Bytes of the whole object. */
  readonly size: number;
  /** Reads `length` bytes at `position` into the start of `buffer`; fewer only at the object's end. */
  read(buffer: Buffer, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /**
   * Stores the whole stream under `key`. Resolves once the object is
   * complete and visible; on any error (including one thrown by the stream,
   * e.g. a size limit) nothing is left under `key` and the error is rethrown.
   */
  put(key: string, body: Readable, meta: { contentType: string }): Promise<void>;
  /** The object (or the bytes of `range` of it, clamped to its end), or null when there is none. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  /**
   * The object for positional reads, or null when there is none. Only where
   * reads at any position are cheap (local disk): the encrypted storage then reads
   * each sealed chunk whole into one buffer it reuses, instead of a stream of fresh
   * buffers that cut across the chunks (bench:files: the garbage collector ran
   * twice as often and encrypted files were served at about 0.7× the plain speed).
   */
  openAt?(key: string): Promise<RandomAccessObject | null>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored object's key (the encryption and key-rotation commands walk them). */
  keys(): AsyncIterable<string>;
}

/** Keys look like materials/3f/3f9c…(32 hex): random, sharded by their first byte. */
export const STORAGE_KEY_PATTERN = /^materials\/[0-9a-f]{2}\/[0-9a-f]{32}$/;

export function newStorageKey(): string {
  const hex = randomBytes(16).toString('hex');
  return `materials/${hex.slice(0, 2)}/${hex}`;
}

export function assertStorageKey(key: string): void {
  if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}
