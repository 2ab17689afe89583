// The stored-file module on a kind declared here and nowhere else (a
// "test scan": PDF only, at most 4 KB, on the page_check_page table under
// routes of its own): an upload is accepted or refused by its content and its
// size, with nothing left stored after a refusal or a failed record; it is
// served to its order's enterprise only, an operator's open is logged; the
// retention job's purger of the kind deletes the stored object and the row.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/error-codes.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { AppError } from '../../platform/errors.ts';
import {
  type Customer,
  draftOrder,
  materialTestContext,
  type MaterialTestContext,
  newCustomer,
  storedFiles as filesOnDisk,
} from '../../test-support/fixtures/material.ts';
import { createRetentionJob, DAY_MS } from '../retention/retention.job.ts';
import { fileAccessLogPage } from './access-log.ts';
import { defineStoredFileKind } from './kind.ts';
import { purgerOf } from './retention.ts';
import { registerFileRoutes } from './serve.ts';
import { createLocalStorage } from './storage-local.ts';
import { createStoredFiles, type UploadSource } from './stored-files.ts';

const testScans = defineStoredFileKind({
  name: 'test_scan',
  table: 'page_check_page',
  idColumn: 'page_id',
  contentTypes: ['application/pdf'],
  maxBytes: 4096,
  customerPath: '/files/test-scan/',
  adminPath: '/admin-files/test-scan/',
  customerCopy: { etag: true, framed: true },
  retention: { name: 'test_scan' },
});

const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1000, 0x20)]);
const errors: object[] = [];
let ctx: MaterialTestContext;
let alice: Customer;
let bob: Customer;
let operatorId: number;
let order: { userOrderId: number; applicantId: number };
let files: ReturnType<typeof createStoredFiles<'page_check_page'>>;
let routes: FastifyInstance;

function source(bytes: Buffer, fileName = '扫描件.pdf', chunk = 512): UploadSource {
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk));
  return { fileName, stream: Readable.from(chunks), truncated: () => false };
}

/** Stores an upload and records its row, as a kind's service does. */
async function uploaded(bytes = pdf): Promise<{ id: number; key: string }> {
  const upload = await files.store(source(bytes));
  const id = await files.keep(upload, async () => {
    const row = await ctx.t.db
      .insertInto('page_check_page')
      .values({ ...upload, user_order_id: order.userOrderId, applicant_id: order.applicantId, operator_id: operatorId, created_at: ctx.t.clock.now })
      .returning('page_id')
      .executeTakeFirstOrThrow();
    return row.page_id;
  });
  return { id, key: upload.storage_key };
}

async function refusal(promise: Promise<unknown>): Promise<number> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).ret;
}

beforeAll(async () => {
  ctx = await materialTestContext();
  alice = await newCustomer(ctx.t);
  bob = await newCustomer(ctx.t);
  operatorId = (await ctx.t.operator()).operatorId;
  const draft = await draftOrder(ctx.t, alice, ctx.products.withoutPhoto.visa_product_id, [0]);
  order = { userOrderId: draft.userOrderId, applicantId: draft.applicants[0]!.applicant_id };
  files = createStoredFiles(ctx.t.db, testScans, {
    storage: createLocalStorage(ctx.uploadDir),
    maxBytes: 10 * 1024 * 1024,
    now: () => ctx.t.clock.now,
    log: { error: (obj) => errors.push(obj) },
  });
  routes = Fastify();
  registerFileRoutes(routes, files, {
    customer: async (token) => (token === 'alice' ? alice : token === 'bob' ? bob : null),
    operator: async (token) => (token === 'op' ? { operatorId } : null),
  });
  await routes.ready();
});

afterAll(async () => {
  await routes?.close();
  await ctx?.close();
});

describe('a declared kind of stored file', () => {
  it('accepts an upload of its type within its size: stored under a new key, named, measured and hashed', async () => {
    const upload = await files.store(source(pdf, 'C:\\scans\\护照\u202e.pdf'));
    expect(upload).toMatchObject({ file_name: '护照.pdf', content_type: 'application/pdf', size_bytes: pdf.length });
    expect(upload.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(join(ctx.uploadDir, upload.storage_key))).toBe(true);
    await files.drop(upload.storage_key, 'test');
    expect(existsSync(join(ctx.uploadDir, upload.storage_key))).toBe(false);
  });

  it('refuses by content and by its own size limit, leaving nothing stored', async () => {
    const before = filesOnDisk(ctx.uploadDir);
    // A PNG is an accepted type elsewhere, not for this kind; text named .pdf is no type at all.
    expect(await refusal(files.store(source(fixture('png'), 'scan.pdf')))).toBe(ErrorCode.MATERIAL_FILE_TYPE);
    expect(await refusal(files.store(source(fixture('renamedText'), 'scan.pdf')))).toBe(ErrorCode.MATERIAL_FILE_TYPE);
    expect(await refusal(files.store(source(Buffer.alloc(0))))).toBe(ErrorCode.MATERIAL_FILE_EMPTY);
    const tooLarge = await files.store(source(Buffer.concat([pdf, Buffer.alloc(4096)]))).catch((e: AppError) => e);
    expect(tooLarge).toMatchObject({ ret: ErrorCode.MATERIAL_FILE_TOO_LARGE, message: '文件过大，单个文件不能超过 4 KB' });
    // Cut by the multipart parser: refused even when the meter let it through.
    const cut = { ...source(pdf), truncated: () => true };
    expect(await refusal(files.store(cut))).toBe(ErrorCode.MATERIAL_FILE_TOO_LARGE);
    // A narrower rule for one upload (the visa photo's).
    const photoOnly = { types: ['image/png'] as const, refused: () => new AppError(ErrorCode.MATERIAL_PHOTO_TYPE) };
    expect(await refusal(files.store(source(pdf), photoOnly))).toBe(ErrorCode.MATERIAL_PHOTO_TYPE);
    expect(filesOnDisk(ctx.uploadDir)).toEqual(before);
  });

  it('deletes the stored object when its row is not recorded', async () => {
    const before = filesOnDisk(ctx.uploadDir);
    const upload = await files.store(source(pdf));
    await expect(files.keep(upload, () => Promise.reject(new AppError(ErrorCode.ORDER_CONFLICT)))).rejects.toMatchObject({ ret: ErrorCode.ORDER_CONFLICT });
    expect(filesOnDisk(ctx.uploadDir)).toEqual(before);
  });

  it('is served to its order’s enterprise only, under its own routes, with the headers it declares', async () => {
    const { id } = await uploaded();
    const url = `/files/test-scan/${id}`;
    const own = await routes.inject({ url, headers: { 'x-token': 'alice' } });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(pdf)).toBe(true);
    expect(own.headers).toMatchObject({
      'content-type': 'application/pdf',
      'cache-control': 'private, no-cache',
      'x-frame-options': 'SAMEORIGIN',
      'content-disposition': `inline; filename="___.pdf"; filename*=UTF-8''${encodeURIComponent('扫描件.pdf')}`,
    });
    const etag = own.headers.etag as string;
    expect((await routes.inject({ url, headers: { 'x-token': 'alice', 'if-none-match': etag } })).statusCode).toBe(304);
    for (const headers of [{ 'x-token': 'bob' }, {}, { 'x-token': 'op' }]) {
      const refused = await routes.inject({ url, headers });
      expect(refused.statusCode).toBe(404);
      expect(refused.body).toBe('Not Found');
    }
    expect((await files.fileFor({ kind: 'customer', enterpriseId: alice.enterpriseId }, id))?.page_id).toBe(id);
    expect(await files.fileFor({ kind: 'customer', enterpriseId: bob.enterpriseId }, id)).toBeNull();
    expect(files.kind.urlOf('customer', { id, sha256: 'ab'.repeat(32) })).toBe(`/files/test-scan/${id}?v=${'ab'.repeat(8)}`);
  });

  it('logs every operator’s open before serving it; a refused or missing one is not logged', async () => {
    const { id } = await uploaded();
    const log = () => ctx.t.db.selectFrom('file_access_log').selectAll().where('file_kind', '=', 'test_scan').where('file_id', '=', id).execute();
    expect((await routes.inject({ url: `/admin-files/test-scan/${id}`, headers: { 'x-token': 'alice' } })).statusCode).toBe(404);
    expect((await routes.inject({ url: '/admin-files/test-scan/2000000000', headers: { 'x-token': 'op' } })).statusCode).toBe(404);
    expect(await log()).toHaveLength(0);
    const opened = await routes.inject({ url: `/admin-files/test-scan/${id}`, headers: { 'x-token': 'op' }, remoteAddress: '10.0.0.9' });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers).toMatchObject({ 'cache-control': 'private, no-store', 'x-frame-options': 'SAMEORIGIN' });
    expect(opened.headers.etag).toBeUndefined();
    expect(await log()).toMatchObject([{ operator_id: operatorId, user_order_id: order.userOrderId, ip: '10.0.0.9' }]);
    const page = await fileAccessLogPage(ctx.t.db, testScans, { userOrderId: order.userOrderId }, 1, 20);
    expect(page.rows.find((row) => row.file_id === id)).toMatchObject({ file_kind: 'test_scan', file_name: '扫描件.pdf' });
  });

  it('answers 404 for a row whose object is gone, and says so in the log', async () => {
    const { id, key } = await uploaded();
    await createLocalStorage(ctx.uploadDir).delete(key);
    const gone = await routes.inject({ url: `/files/test-scan/${id}`, headers: { 'x-token': 'alice' } });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers.etag).toBeUndefined();
    expect(gone.headers['content-disposition']).toBeUndefined();
    expect(errors).toContainEqual(expect.objectContaining({ fileKind: 'test_scan', storageKey: key }));
  });

  it('is purged by the retention job: the stored object first, then the row, counted under its name', async () => {
    const { id, key } = await uploaded();
    const finishedAt = ctx.t.clock.now - 31 * DAY_MS;
    const purger = purgerOf(testScans);
    const finished = { user_order_id: order.userOrderId, finished_at: finishedAt };
    // Not before RETENTION_DAYS: due later, at the end of the period.
    expect(await purger.due(ctx.t.db, finished, finishedAt + DAY_MS, 30 * DAY_MS)).toEqual([]);
    expect(await purger.nextDueAt(ctx.t.db, finished, finishedAt + DAY_MS, 30 * DAY_MS)).toBe(finishedAt + 30 * DAY_MS);
    expect(await purger.due(ctx.t.db, finished, ctx.t.clock.now, 30 * DAY_MS)).toContainEqual({ id, storage_key: key });

    await ctx.t.db
      .updateTable('user_order')
      .set({ status: 'completed', step: null, step_entered_at: finishedAt })
      .where('user_order_id', '=', order.userOrderId)
      .execute();
    const job = createRetentionJob(ctx.t.db, {
      storage: createLocalStorage(ctx.uploadDir),
      now: () => ctx.t.clock.now,
      retentionDays: 30,
      log: { info: () => {}, warn: () => {} },
      purgers: [purger],
    });
    const run = await job.runOnce();
    expect(run).toMatchObject({ purged: 1 });
    expect(existsSync(join(ctx.uploadDir, key))).toBe(false);
    expect(await ctx.t.db.selectFrom('page_check_page').select('page_id').where('user_order_id', '=', order.userOrderId).execute()).toEqual([]);
    const event = await ctx.t.db
      .selectFrom('order_event')
      .select('detail')
      .where('user_order_id', '=', order.userOrderId)
      .where('event', '=', 'retention_purge')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.detail!)).toMatchObject({ files: { test_scan: run.files } });
    expect(await purger.nextDueAt(ctx.t.db, finished, ctx.t.clock.now, 30 * DAY_MS)).toBeNull();
  });
});
