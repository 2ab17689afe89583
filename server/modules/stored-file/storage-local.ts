// Files on local disk under UPLOAD_DIR (keep it outside the web root; nothing
// serves that folder directly). A file is written to a temporary name beside
// its final one and renamed only once complete, so a reader never sees half a
// file, and a failed or aborted upload leaves nothing but is cleaned up at once.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, type FileStorage, STORAGE_KEY_PATTERN } from './storage.ts';

/** Suffix of files still being written; an operator may delete stale ones (older than a day). */
export const PARTIAL_SUFFIX = '.part';

export function createLocalStorage(uploadDir: string): FileStorage {
  const root = resolve(uploadDir);
  const pathOf = (key: string) => {
    assertStorageKey(key);
    return join(root, key);
  };

  return {
    kind: 'local',

    async put(key, body) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      const partial = `${target}.${randomBytes(6).toString('hex')}${PARTIAL_SUFFIX}`;
      try {
        // 'wx': never overwrite; flush: on disk before the rename makes it visible.
        await pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600, flush: true }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },

    async get(key, range) {
      const path = pathOf(key);
      try {
        const info = await stat(path);
        const body = !range
          ? createReadStream(path)
          : range.start >= info.size
            ? Readable.from([])
            : createReadStream(path, { start: range.start, end: Math.min(range.end, info.size - 1) });
        return { body, size: info.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async openAt(key) {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        return {
          size,
          async read(buffer, length, position) {
            let done = 0;
            while (done < length) {
              const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
              if (bytesRead === 0) break;
              done += bytesRead;
            }
            return done;
          },
          close: () => handle.close(),
        };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },

    async *keys() {
      const shards = await readdir(join(root, 'materials')).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [] as string[];
        throw error;
      });
      for (const shard of shards.sort()) {
        const names = await readdir(join(root, 'materials', shard)).catch(() => [] as string[]);
        // Files still being written (*.part) and anything else are not objects.
        for (const name of names.sort()) if (STORAGE_KEY_PATTERN.test(`materials/${shard}/${name}`)) yield `materials/${shard}/${name}`;
      }
    },
  };
}
