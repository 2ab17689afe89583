// Cache of server-rendered pages for guests. An entry is served only while
// the version its page was rendered from is still current: the version is
// read from the database on every request (one indexed query), so an edit can
// never leave a stale page behind, on any instance. A page is kept without
// its CSP nonce (a template): each response gets a fresh one (decision 0013).
import { type PageTemplate, templateBytes } from './page-template.ts';

export interface CachedPage {
  status: number;
  headers: Array<[string, string]>;
  /** The body as rendered, split where the nonce stood; its compressed parts are made on first use. */
  template: PageTemplate;
}

function sizeOf(page: CachedPage): number {
  return templateBytes(page.template);
}

export interface CacheRule {
  /** Matches the path; the match is handed to version(). */
  pattern: RegExp;
  /** What the page was built from, or null when the page must not be cached. */
  version(match: RegExpExecArray): Promise<string | null>;
}

export interface PageCacheOptions {
  maxEntries: number;
  maxBytes: number;
}

export function createPageCache(rules: CacheRule[], options: PageCacheOptions) {
  // A Map keeps insertion order: re-inserting on use makes it an LRU.
  const entries = new Map<string, { version: string; page: CachedPage; size: number }>();
  let bytes = 0;

  function evict(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.size;
    entries.delete(key);
  }

  return {
    /** The rule's version for this URL, or null when the URL is not cacheable. */
    async versionOf(pathname: string): Promise<string | null> {
      for (const rule of rules) {
        const match = rule.pattern.exec(pathname);
        if (match) return rule.version(match);
      }
      return null;
    },

    get(key: string, version: string): CachedPage | null {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.version !== version) {
        evict(key);
        return null;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.page;
    },

    set(key: string, version: string, page: CachedPage): void {
      // Counted at the identity size ×2, which covers the compressed copies added later.
      const size = sizeOf(page) * 2;
      if (size > options.maxBytes / 4) return;
      evict(key);
      entries.set(key, { version, page, size });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (entries.size <= options.maxEntries && bytes <= options.maxBytes) break;
        evict(oldest);
      }
    },

    get size() {
      return entries.size;
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
