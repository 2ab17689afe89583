// The upload over a real socket, where inject() cannot tell: an oversize file
// streamed in chunks gets its answer and the connection does not stall; a
// client that disappears half-way leaves no partial file and no row.
import { createReadStream } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, MB, oversizeFile } from '../../../tests/fixtures/index.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { signedHeaders } from '../../test-support/test-app.ts';
import { type Customer, draftOrder, materialTestContext, type MaterialTestContext, newCustomer, storedFiles } from '../../test-support/fixtures/material.ts';

let ctx: MaterialTestContext;
let alice: Customer;
let port: number;

beforeAll(async () => {
  ctx = await materialTestContext();
  alice = await newCustomer(ctx.t);
  await ctx.t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await ctx?.close();
});

function head(boundary: string, fields: Record<string, string | number>): Buffer {
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return Buffer.from(`${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
}

async function target() {
  const { userOrderId, applicants } = await draftOrder(ctx.t, alice, ctx.products.withPhoto.visa_product_id, [0]);
  const item = ctx.products.electronic(ctx.products.withPhoto.visa_product_id, 0)[0]!;
  return { user_order_id: userOrderId, applicant_id: applicants[0]!.applicant_id, material_id: item.material_id };
}

function open(contentType: string, length?: number) {
  ctx.t.clock.now = Date.now();
  return request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/www/order/material_upload',
    headers: { ...signedHeaders(ctx.t.clock, { token: alice.token }), 'content-type': contentType, ...(length ? { 'content-length': String(length) } : {}) },
  });
}

describe(`upload over a real connection (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('streams an 11 MB file, answers 1822 and keeps nothing of it', async () => {
    const fields = await target();
    const boundary = 'bigBoundary42';
    const path = oversizeFile(11 * MB);
    const start = head(boundary, fields);
    const end = Buffer.from(`\r\n--${boundary}--\r\n`);
    const req = open(`multipart/form-data; boundary=${boundary}`, start.length + 11 * MB + end.length);
    const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
      req.on('response', async (response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of response) chunks.push(chunk as Buffer);
        resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) });
      });
      req.on('error', reject);
    });
    req.write(start);
    const file = createReadStream(path, { highWaterMark: 64 * 1024 });
    file.pipe(req, { end: false });
    file.on('end', () => req.end(end));
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(body).toMatchObject({ ret: ErrorCode.MATERIAL_FILE_TOO_LARGE, msg: '文件过大，单个文件不能超过 10 MB' });
    expect(storedFiles(ctx.uploadDir)).toEqual([]);
    expect(await ctx.t.db.selectFrom('order_material_file').selectAll().where('user_order_id', '=', fields.user_order_id).execute()).toEqual([]);
  });

  it('drops a half-received file when the client goes away, and records nothing', async () => {
    const fields = await target();
    const boundary = 'abortBoundary7';
    const req = open(`multipart/form-data; boundary=${boundary}`, 5 * MB);
    req.on('error', () => {});
    req.write(head(boundary, fields));
    req.write(fixture('jpeg'));
    for (let i = 0; i < 16; i += 1) req.write(Buffer.alloc(64 * 1024, i));
    // Let the server write some of it, then vanish.
    await new Promise((resolve) => setTimeout(resolve, 300));
    req.destroy();
    for (let i = 0; i < 50 && storedFiles(ctx.uploadDir).length > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(storedFiles(ctx.uploadDir)).toEqual([]);
    expect(await ctx.t.db.selectFrom('order_material_file').selectAll().where('user_order_id', '=', fields.user_order_id).execute()).toEqual([]);
    expect(await ctx.t.db.selectFrom('order_event').select('event').where('user_order_id', '=', fields.user_order_id).execute()).toEqual([{ event: 'create' }]);
  });

  it('still takes a good upload on the same server afterwards', async () => {
    const fields = await target();
    const boundary = 'okBoundary';
    const body = Buffer.concat([head(boundary, fields), fixture('jpeg'), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const req = open(`multipart/form-data; boundary=${boundary}`, body.length);
    const answer = new Promise<any>((resolve, reject) => {
      req.on('response', async (response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of response) chunks.push(chunk as Buffer);
        resolve(JSON.parse(Buffer.concat(chunks).toString()));
      });
      req.on('error', reject);
    });
    req.end(body);
    expect(await answer).toMatchObject({ ret: 0, body: { file: { content_type: 'image/jpeg', size: fixture('jpeg').length } } });
    expect(storedFiles(ctx.uploadDir)).toHaveLength(1);
  });
});
