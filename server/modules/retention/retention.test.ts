// The retention job on SQLite or PostgreSQL, with real files on disk: the
// uploaded scans (material files, page-check pages) of orders completed or
// refunded RETENTION_DAYS ago are deleted — the stored objects and their
// rows — with a retention_purge event, and nothing else (orders, applicants,
// events, shipments stay); recent and processing orders keep theirs; a second
// run does nothing; two runs at once never delete twice nor fail.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminOrderComplete } from '../../../common/contracts/ship-back.ts';
import type { Customer } from '../../test-support/fixtures/material.ts';
import { createLocalStorage } from '../stored-file/storage-local.ts';
import { newStorageKey } from '../stored-file/storage.ts';
import { type Op, shipBackTestContext, type ShipBackTestContext } from '../../test-support/fixtures/ship-back.ts';
import { T0 } from '../../test-support/fixtures/review.ts';
import { createRetentionJob, DAY_MS } from './retention.job.ts';

let ctx: ShipBackTestContext;
// Fresh sessions after every jump of the clock (sessions expire).
let alice: Customer;
let op: Op;
async function sessions() {
  alice = await ctx.customer();
  op = await ctx.t.operator();
}
const silent = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  ctx = await shipBackTestContext();
  await sessions();
});
// Every test starts at the fixtures' T0 (the orders' departure dates are fixed ahead of it).
beforeEach(async () => {
  ctx.t.clock.now = T0;
  await sessions();
});
afterAll(async () => {
  await ctx?.close();
});

const storage = () => createLocalStorage(ctx.uploadDir);
const job = (days = 30) => createRetentionJob(ctx.t.db, { storage: storage(), now: () => ctx.t.clock.now, retentionDays: days, log: silent });

/** Real objects on disk for every material file of the order, and one page-check page per applicant. */
async function storeScans(id: number): Promise<string[]> {
  const keys: string[] = [];
  const files = await ctx.t.db.selectFrom('order_material_file').select('file_id').where('user_order_id', '=', id).execute();
  for (const file of files) {
    const key = newStorageKey();
    await storage().put(key, Readable.from([Buffer.from(`scan ${file.file_id}`)]), { contentType: 'image/jpeg' });
    await ctx.t.db.updateTable('order_material_file').set({ storage_key: key }).where('file_id', '=', file.file_id).execute();
    keys.push(key);
  }
  for (const applicantId of await ctx.applicantIds(id)) {
    const key = newStorageKey();
    await storage().put(key, Readable.from([Buffer.from('%PDF-1.4 page')]), { contentType: 'application/pdf' });
    await ctx.t.db
      .insertInto('page_check_page')
      .values({
        user_order_id: id,
        applicant_id: applicantId,
        storage_key: key,
        file_name: '申请表.pdf',
        content_type: 'application/pdf',
        size_bytes: 13,
        sha256: '0'.repeat(64),
        operator_id: op.operatorId,
        created_at: ctx.t.clock.now,
      })
      .execute();
    keys.push(key);
  }
  return keys;
}

const onDisk = (keys: string[]) => keys.filter((key) => existsSync(join(ctx.uploadDir, key))).length;

/** A submitted order with stored scans, finished now by `complete` (nothing held) — completed, or refunded. */
async function finished(outcome: 'completed' | 'refunded'): Promise<{ id: number; keys: string[]; customer: Customer }> {
  await sessions();
  const id = await ctx.submittedOrder(alice, op, { mailed: false, rejectRefund: 1 });
  const keys = await storeScans(id);
  for (const applicantId of await ctx.applicantIds(id)) await ctx.result(op, id, applicantId, outcome === 'refunded' ? 'rejected' : 'issued');
  const done = await op.callContract(adminOrderComplete, { user_order_id: id, version: (await ctx.orderRow(id)).version });
  expect(done.result!.status).toBe(outcome);
  return { id, keys, customer: alice };
}

async function snapshot(id: number) {
  const [order, applicants, events, shipments] = await Promise.all([
    ctx.t.db.selectFrom('user_order').select(['status', 'step', 'total_amount', 'paid_at']).where('user_order_id', '=', id).executeTakeFirstOrThrow(),
    ctx.t.db.selectFrom('order_applicant').select(['applicant_id', 'name', 'status']).where('user_order_id', '=', id).orderBy('applicant_id').execute(),
    ctx.t.db.selectFrom('order_event').select(['event_id', 'event']).where('user_order_id', '=', id).orderBy('event_id').execute(),
    ctx.t.db.selectFrom('shipment').select('shipment_id').where('user_order_id', '=', id).execute(),
  ]);
  return { order, applicants, events, shipments };
}

const rows = async (id: number) => ({
  files: (await ctx.t.db.selectFrom('order_material_file').select('file_id').where('user_order_id', '=', id).execute()).length,
  pages: (await ctx.t.db.selectFrom('page_check_page').select('page_id').where('user_order_id', '=', id).execute()).length,
});

describe(`retention of travellers' scans (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('deletes the scans of orders finished RETENTION_DAYS ago (files on disk and rows) and nothing else', async () => {
    const start = ctx.t.clock.now;
    const oldCompleted = await finished('completed');
    const oldRefunded = await finished('refunded');
    // Still processing (submitted, results pending), as old as the others.
    await sessions();
    const processing = await ctx.submittedOrder(alice, op);
    const processingKeys = await storeScans(processing);
    // Finished 20 days later: 10 days old when the job runs.
    ctx.t.clock.now = start + 20 * DAY_MS;
    const recent = await finished('completed');
    expect(onDisk(oldCompleted.keys)).toBe(oldCompleted.keys.length);
    const before = await snapshot(oldCompleted.id);

    // 29 days after the first ones finished: nothing is due yet.
    ctx.t.clock.now = start + 29 * DAY_MS;
    expect((await job().runOnce()).purged).toBe(0);
    expect(onDisk(oldCompleted.keys)).toBe(oldCompleted.keys.length);

    ctx.t.clock.now = start + 30 * DAY_MS + 60_000;
    const run = await job().runOnce();
    expect(run.purged).toBe(2);
    expect(run.files).toBe(oldCompleted.keys.length + oldRefunded.keys.length);
    for (const done of [oldCompleted, oldRefunded]) {
      expect(onDisk(done.keys)).toBe(0);
      expect(await rows(done.id)).toEqual({ files: 0, pages: 0 });
    }
    // Recent and processing orders keep everything.
    expect(onDisk(recent.keys)).toBe(recent.keys.length);
    expect(onDisk(processingKeys)).toBe(processingKeys.length);
    expect((await rows(recent.id)).files).toBeGreaterThan(0);
    expect((await rows(processing)).pages).toBeGreaterThan(0);

    // Nothing else went: the order, its applicants (with their results), its events, one more: retention_purge.
    const after = await snapshot(oldCompleted.id);
    expect(after.order).toEqual(before.order);
    expect(after.applicants).toEqual(before.applicants);
    expect(after.events.slice(0, -1)).toEqual(before.events);
    expect(after.events.at(-1)!.event).toBe('retention_purge');
    const purge = await ctx.t.db
      .selectFrom('order_event')
      .select(['actor', 'from_status', 'to_status', 'detail'])
      .where('user_order_id', '=', oldRefunded.id)
      .where('event', '=', 'retention_purge')
      .executeTakeFirstOrThrow();
    expect(purge).toMatchObject({ actor: 'system', from_status: 'refunded', to_status: 'refunded' });
    expect(JSON.parse(purge.detail!)).toMatchObject({ retention_days: 30, total: oldRefunded.keys.length, files: { page_check_page: 2 } });
    // The customer's order still opens.
    const detail = await ctx.t.services.order.detail(oldCompleted.customer, oldCompleted.id);
    expect(detail).toMatchObject({ user_order_id: oldCompleted.id, status: 'completed' });

    // A second run finds nothing more; the recent order goes when its own 30 days are up.
    expect(await job().runOnce()).toMatchObject({ purged: 0, files: 0 });
    ctx.t.clock.now = start + 50 * DAY_MS + 120_000;
    expect((await job().runOnce()).purged).toBe(1);
    expect(onDisk(recent.keys)).toBe(0);
    expect(onDisk(processingKeys)).toBe(processingKeys.length);
    const purges = await ctx.t.db.selectFrom('order_event').select('user_order_id').where('event', '=', 'retention_purge').execute();
    expect(purges.map((p) => p.user_order_id).sort()).toEqual([oldCompleted.id, oldRefunded.id, recent.id].sort());
  });

  it('two runs at once (two instances) purge each order exactly once and never fail', async () => {
    const start = ctx.t.clock.now;
    const orders = [await finished('completed'), await finished('completed'), await finished('refunded'), await finished('completed')];
    ctx.t.clock.now = start + 31 * DAY_MS;
    const warnings: unknown[] = [];
    const log = { info: () => {}, warn: (obj: object) => warnings.push(obj) };
    const a = createRetentionJob(ctx.t.db, { storage: storage(), now: () => ctx.t.clock.now, retentionDays: 30, log });
    const b = createRetentionJob(ctx.t.db, { storage: storage(), now: () => ctx.t.clock.now, retentionDays: 30, log });
    const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(warnings).toEqual([]);
    expect(ra.purged + rb.purged).toBe(orders.length);
    expect(ra.files + rb.files).toBe(orders.reduce((sum, o) => sum + o.keys.length, 0));
    for (const order of orders) {
      expect(onDisk(order.keys)).toBe(0);
      const events = await ctx.t.db
        .selectFrom('order_event')
        .select('event')
        .where('user_order_id', '=', order.id)
        .where('event', '=', 'retention_purge')
        .execute();
      expect(events).toHaveLength(1);
    }
    // And again, both at once: nothing left.
    const again = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(again.map((r) => r.purged)).toEqual([0, 0]);
  });

  it("keeps an e-visa until its visa's validity ends; refusal letters and unused uploads go with the scans", async () => {
    const start = ctx.t.clock.now;
    const order = await finished('completed');
    const [issuedId, refusedId] = await ctx.applicantIds(order.id);
    // Valid for 60 days from the finish: longer than the 30 days of the scans.
    const validTo = new Date(start + 60 * DAY_MS + 8 * 3600_000).toISOString().slice(0, 10);
    async function stored(applicantId: number, kind: 'evisa' | 'letter'): Promise<{ fileId: number; key: string }> {
      const key = newStorageKey();
      await storage().put(key, Readable.from([Buffer.from('%PDF-1.4 visa')]), { contentType: 'application/pdf' });
      const row = await ctx.t.db
        .insertInto('visa_result_file')
        .values({
          user_order_id: order.id,
          applicant_id: applicantId,
          kind,
          storage_key: key,
          file_name: `${kind}.pdf`,
          content_type: 'application/pdf',
          size_bytes: 13,
          sha256: '0'.repeat(64),
          operator_id: op.operatorId,
          created_at: ctx.t.clock.now,
          result_id: null,
          purged_at: null,
        })
        .returning('file_id')
        .executeTakeFirstOrThrow();
      return { fileId: row.file_id, key };
    }
    const evisa = await stored(issuedId!, 'evisa');
    const letter = await stored(refusedId!, 'letter');
    const unused = await stored(issuedId!, 'evisa');
    const result = await ctx.t.db
      .insertInto('visa_result')
      .values({
        user_order_id: order.id,
        applicant_id: issuedId!,
        result: 'issued',
        visa_no: 'E1234567',
        valid_from: new Date(start).toISOString().slice(0, 10),
        valid_to: validTo,
        entries: '单次',
        stay_days: 30,
        reject_reasons: null,
        reject_note: null,
        file_id: evisa.fileId,
        operator_id: op.operatorId,
        created_at: ctx.t.clock.now,
      })
      .returning('result_id')
      .executeTakeFirstOrThrow();
    await ctx.t.db.updateTable('visa_result_file').set({ result_id: result.result_id }).where('file_id', '=', evisa.fileId).execute();
    const purgedAt = async (fileId: number) =>
      (await ctx.t.db.selectFrom('visa_result_file').select('purged_at').where('file_id', '=', fileId).executeTakeFirstOrThrow()).purged_at;

    // After 31 days: the scans, the letter and the unused upload go; the e-visa stays (its row and object).
    ctx.t.clock.now = start + 31 * DAY_MS;
    expect((await job().runOnce()).purged).toBe(1);
    expect(onDisk(order.keys)).toBe(0);
    expect(onDisk([letter.key, unused.key])).toBe(0);
    expect(await purgedAt(letter.fileId)).toBe(ctx.t.clock.now);
    expect(onDisk([evisa.key])).toBe(1);
    expect(await purgedAt(evisa.fileId)).toBeNull();
    // The order is due again when the visa ends, not before.
    ctx.t.clock.now = start + 59 * DAY_MS;
    expect((await job().runOnce()).purged).toBe(0);
    expect(onDisk([evisa.key])).toBe(1);
    ctx.t.clock.now = start + 62 * DAY_MS;
    expect((await job().runOnce()).purged).toBe(1);
    expect(onDisk([evisa.key])).toBe(0);
    expect(await purgedAt(evisa.fileId)).toBe(ctx.t.clock.now);
    // The result row (the visa's number and dates) stays.
    expect(await ctx.t.db.selectFrom('visa_result').select('visa_no').where('result_id', '=', result.result_id).executeTakeFirst()).toEqual({
      visa_no: 'E1234567',
    });
    const purges = await ctx.t.db
      .selectFrom('order_event')
      .select('detail')
      .where('user_order_id', '=', order.id)
      .where('event', '=', 'retention_purge')
      .execute();
    expect(purges.map((p) => JSON.parse(p.detail!).files.visa_result_file)).toEqual([2, 1]);
  });

  it('an order held by another instance (its lease not run out) is left alone until the lease ends', async () => {
    const start = ctx.t.clock.now;
    const order = await finished('completed');
    ctx.t.clock.now = start + 31 * DAY_MS;
    // Another instance claimed it and crashed before deleting.
    await ctx.t.db
      .insertInto('order_retention')
      .values({
        user_order_id: order.id,
        lease_until: ctx.t.clock.now + 60_000,
        lease_owner: 'crashed',
        purged_at: null,
        next_due_at: null,
        updated_at: ctx.t.clock.now,
      })
      .execute();
    expect((await job().runOnce()).purged).toBe(0);
    expect(onDisk(order.keys)).toBe(order.keys.length);
    ctx.t.clock.now += 120_000;
    expect((await job().runOnce()).purged).toBe(1);
    expect(onDisk(order.keys)).toBe(0);
  });
});
