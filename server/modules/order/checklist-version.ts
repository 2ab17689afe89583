// The checklist an order is placed with (issue 26), shared between orders
// (migration 059, issue 24's bench:order): the product's live checklist of each
// of the order's identities is named by the SHA-256 of its items. Orders placed
// while the product shows the same list get the same version; a publish that
// changes the list makes the next order's digest, and so its version, new.
//
// Reading and hashing the live list on every order would cost about what
// copying it did. The database counts every change to a product's materials
// (visa_product.checklist_serial, bumped by triggers, so no writer can forget),
// and each process keeps the versions it has seen by product, serial and
// identity: an order of a list already seen reads nothing more than the product.
import { createHash } from 'node:crypto';
import type { ChecklistVersionItemTable } from '../../db/schema.ts';

/** One item of an identity's checklist: a checklist_version_item row without its digest. */
export type ChecklistItem = Omit<ChecklistVersionItemTable, 'digest'>;

export type ChecklistVersion = {
  digest: string;
  identity_id: number;
  items: ChecklistItem[];
  /** This process has seen the version committed: its rows exist (versions are never deleted; orders point at them). */
  stored: boolean;
};

/** The versions of the identities that have a checklist (an identity with none gets no version, as it had no rows before). */
export function checklistVersions(items: ChecklistItem[]): ChecklistVersion[] {
  const byIdentity = new Map<number, ChecklistItem[]>();
  for (const item of items) byIdentity.set(item.identity_id, [...(byIdentity.get(item.identity_id) ?? []), item]);
  return [...byIdentity].map(([identityId, list]) => {
    // Sorted by material_id: the same list gives the same digest whatever order the database read it in.
    // The digest hashes each item as an array in column order (migration 059 hashes the copies it moves the same way).
    const sorted = [...list].sort((a, b) => a.material_id - b.material_id);
    const canonical = sorted.map((i) => [i.material_id, i.identity_id, i.required, i.attr, i.name, i.attention, i.sample, i.sort]);
    return {
      digest: createHash('sha256').update(JSON.stringify(canonical)).digest('hex'),
      identity_id: identityId,
      items: sorted,
      stored: false,
    };
  });
}

/** Enough for every identity of a large catalogue (the demo has 253 products × 5 identities). */
const CACHE_ENTRIES = 4_000;

/**
 * Versions seen by (product, serial, identity), per database handle (tests run
 * many databases in one process). null: the identity has no checklist.
 */
export function createChecklistCache() {
  const entries = new Map<string, ChecklistVersion | null>();
  const key = (visaProductId: number, serial: number, identityId: number) => `${visaProductId}:${serial}:${identityId}`;
  return {
    get(visaProductId: number, serial: number, identityId: number): ChecklistVersion | null | undefined {
      const k = key(visaProductId, serial, identityId);
      const entry = entries.get(k);
      if (entry === undefined) return undefined;
      entries.delete(k); // most recently used last
      entries.set(k, entry);
      return entry;
    },
    set(visaProductId: number, serial: number, identityId: number, version: ChecklistVersion | null): void {
      entries.set(key(visaProductId, serial, identityId), version);
      while (entries.size > CACHE_ENTRIES) entries.delete(entries.keys().next().value!);
    },
  };
}

export type ChecklistCache = ReturnType<typeof createChecklistCache>;
