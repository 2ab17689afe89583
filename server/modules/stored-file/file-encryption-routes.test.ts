// Encryption at rest seen from the file routes (decision 0043), on SQLite and
// PostgreSQL alike: an upload lands as ciphertext and is served whole and by
// range; a byte changed on disk is refused with the envelope (1836), logged,
// and none of the file's bytes or headers go out.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../../common/constants.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { type Customer, draftOrder, materialTestContext, type MaterialTestContext, newCustomer, upload } from '../../test-support/fixtures/material.ts';
import { HEADER_BYTES, isEncrypted } from './envelope.ts';

let ctx: MaterialTestContext;
let alice: Customer;
let operatorToken: string;
const pdf = fixture('pdf');

async function uploaded(name: string, content: Buffer): Promise<{ fileId: number; path: string }> {
  const { userOrderId, applicants } = await draftOrder(ctx.t, alice, ctx.products.withPhoto.visa_product_id);
  const item = ctx.products.electronic(ctx.products.withPhoto.visa_product_id, 0)[0]!;
  const answer = await upload(
    ctx.t,
    alice.token,
    { user_order_id: userOrderId, applicant_id: applicants[0]!.applicant_id, material_id: item.material_id },
    { name, content },
  );
  expect(answer.body.ret).toBe(0);
  const fileId = answer.body.body.file.file_id as number;
  const row = await ctx.t.db.selectFrom('order_material_file').select('storage_key').where('file_id', '=', fileId).executeTakeFirstOrThrow();
  return { fileId, path: join(ctx.uploadDir, row.storage_key) };
}

beforeAll(async () => {
  ctx = await materialTestContext();
  alice = await newCustomer(ctx.t);
  operatorToken = (await ctx.t.operator()).token;
});

afterAll(() => ctx?.close());

const asCustomer = () => ({ cookie: `${STORAGE_KEYS.tokenCookie}=${alice.token}` });
const asOperator = () => ({ cookie: `${STORAGE_KEYS.adminTokenCookie}=${operatorToken}` });
const get = (url: string, headers: Record<string, string>) => ctx.t.app.inject({ method: 'GET', url, headers });

describe('stored files encrypted at rest, through the file routes', () => {
  it('an upload is stored as ciphertext and served back whole, to the customer and to staff', async () => {
    const { fileId, path } = await uploaded('申请表.pdf', pdf);
    const onDisk = readFileSync(path);
    expect(isEncrypted(onDisk)).toBe(true);
    expect(onDisk.includes(pdf.subarray(0, 32))).toBe(false);
    for (const [url, headers] of [
      [`/files/material/${fileId}`, asCustomer()],
      [`/admin-files/material/${fileId}`, asOperator()],
    ] as const) {
      const answer = await get(url, headers);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['accept-ranges']).toBe('bytes');
      expect(answer.headers['content-length']).toBe(String(pdf.length));
      expect(answer.rawPayload.equals(pdf)).toBe(true);
    }
  });

  it('answers a Range with 206 and only those bytes; an unsatisfiable one with 416; several ranges with the whole file', async () => {
    const { fileId } = await uploaded('申请表.pdf', pdf);
    const url = `/files/material/${fileId}`;
    const part = await get(url, { ...asCustomer(), range: 'bytes=5-20' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 5-20/${pdf.length}`);
    expect(part.headers['content-length']).toBe('16');
    expect(part.rawPayload.equals(pdf.subarray(5, 21))).toBe(true);

    const tail = await get(url, { ...asCustomer(), range: 'bytes=-10' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(pdf.subarray(pdf.length - 10))).toBe(true);

    const open = await get(url, { ...asCustomer(), range: `bytes=${pdf.length - 3}-` });
    expect(open.rawPayload.equals(pdf.subarray(pdf.length - 3))).toBe(true);

    const beyond = await get(url, { ...asCustomer(), range: `bytes=${pdf.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${pdf.length}`);
    expect(beyond.rawPayload.length).toBe(0);

    for (const ignored of ['bytes=0-1,5-6', 'bytes=9-3', 'items=0-1']) {
      const whole = await get(url, { ...asCustomer(), range: ignored });
      expect(whole.statusCode, ignored).toBe(200);
      expect(whole.rawPayload.equals(pdf)).toBe(true);
    }
    // If-Range naming another version: the whole file.
    const stale = await get(url, { ...asCustomer(), range: 'bytes=0-1', 'if-range': '"another"' });
    expect(stale.statusCode).toBe(200);
  });

  it('a file with one byte changed on disk is refused with the envelope, and nothing of it is sent', async () => {
    const { fileId, path } = await uploaded('申请表.pdf', pdf);
    const file = readFileSync(path);
    file[HEADER_BYTES + 10]! ^= 0x01;
    writeFileSync(path, file);
    for (const [url, headers] of [
      [`/files/material/${fileId}`, asCustomer()],
      [`/admin-files/material/${fileId}`, asOperator()],
      [`/files/material/${fileId}`, { ...asCustomer(), range: 'bytes=0-9' }],
    ] as const) {
      const answer = await get(url, headers);
      expect(answer.statusCode).toBe(409);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['content-disposition']).toBeUndefined();
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.json()).toEqual({ ret: ErrorCode.STORED_FILE_DAMAGED, msg: '文件已损坏，无法打开，请联系客服', body: null });
    }
  });
});
