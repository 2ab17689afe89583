// Test fixtures of the material module: an app on a private database with
// its own upload folder, products inserted by the factories, customers with draft orders, and multipart
// bodies built by hand (what a browser sends). Not a test file itself.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { materialUpload } from '../../../common/contracts/material.ts';
import { defaultMaterials } from '../../test-support/factories.ts';
import { createTestApp, createTestDatabase, signedHeaders, type TestApp, type TestDatabase } from '../../test-support/test-app.ts';
import type { Customer as Principal } from '../../platform/principal.ts';

/** Tuesday 1 December 2026, 10:00 in China. */
export const T0 = Date.parse('2026-12-01T02:00:00Z');
export const DEPARTURE = '2026-12-28';

export interface MaterialTestContext {
  database: TestDatabase;
  t: TestApp;
  uploadDir: string;
  products: Awaited<ReturnType<typeof insertProducts>>;
  close(): Promise<void>;
}

export async function materialTestContext(): Promise<MaterialTestContext> {
  const database = await createTestDatabase();
  // Never the working tree's data/uploads.
  const uploadDir = mkdtempSync(join(tmpdir(), 'visa-uploads-'));
  database.config.UPLOAD_DIR = uploadDir;
  const t = await createTestApp(database);
  t.clock.now = T0;
  return {
    database,
    t,
    uploadDir,
    products: await insertProducts(t),
    close: async () => {
      await t.close(true);
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

/** Products of the material tests: one with a photo and every kind of material, one without a photo. */
async function insertProducts(t: TestApp) {
  // Identity 0 of withPhoto has electronic, mailed and bring-to-embassy items (the last without an interview).
  const withPhoto = await t.insertProduct({ photo: true, materials: { 0: defaultMaterials(0, { mailed: true, interview: true }) } });
  const withoutPhoto = await t.insertProduct({ photo: false });
  const materials = [...withPhoto.materials, ...withoutPhoto.materials];
  const own = (id: number, identity: number) => materials.filter((m) => m.visa_product_id === id && m.identity_id === identity);
  const electronic = (id: number, identity: number) => own(id, identity).filter((m) => m.attr === 0);
  return {
    withPhoto,
    withoutPhoto,
    /** Electronic items of an identity for a product. */
    electronic,
    /** A mailed or bring-to-embassy item of identity 0. */
    notElectronic: own(withPhoto.visa_product_id, 0).find((m) => m.attr !== 0)!,
    /** An electronic item of identity 3 (student) that identity 0 does not have. */
    otherIdentity: electronic(withPhoto.visa_product_id, 3).find((m) => !electronic(withPhoto.visa_product_id, 0).some((o) => o.name === m.name)) ?? null,
    /** An electronic item of another product. */
    otherProduct: materials.find((m) => m.visa_product_id !== withPhoto.visa_product_id && m.attr === 0)!,
  };
}

/** A logged-in customer: the principal and its session token. */
export interface Customer extends Principal {
  token: string;
}

export async function newCustomer(t: TestApp): Promise<Customer> {
  const created = await t.createAccount();
  return { kind: 'customer', accountId: created.accountId, enterpriseId: created.enterpriseId, token: await t.login(created.account, created.password) };
}

/** A draft order of the product with two applicants (identities 0 and 3). */
export async function draftOrder(t: TestApp, customer: Customer, visaProductId: number, identities: number[] = [0, 3]) {
  const result = await t.call(
    '/www/order/order_create',
    {
      visa_product_id: visaProductId,
      departure_date: DEPARTURE,
      applicants: identities.map((identity_id, index) => ({ name: `申请人${index + 1}`, identity_id, mobile_phone: `1390013${String(9000 + index)}` })),
    },
    { token: customer.token },
  );
  if (result.body.ret !== 0) throw new Error(`order_create failed: ${result.body.msg}`);
  const userOrderId = result.body.body.user_order_id as number;
  const applicants = await t.db
    .selectFrom('order_applicant')
    .select(['applicant_id', 'identity_id'])
    .where('user_order_id', '=', userOrderId)
    .orderBy('sort')
    .execute();
  return { userOrderId, applicants };
}

export interface FilePart {
  name?: string;
  content: Buffer;
  /** What the browser claims; the server ignores it. */
  type?: string;
  field?: string;
}

/** A multipart/form-data body: the fields in order, then the file parts. */
export function multipart(fields: Record<string, string | number | undefined>, ...files: FilePart[]): { body: Buffer; contentType: string } {
  const boundary = `----visaTest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name ?? 'scan.jpg'}"\r\nContent-Type: ${file.type ?? 'image/jpeg'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST the upload as the browser would (signed headers, the session token). */
export async function upload(t: TestApp, token: string | undefined, fields: Record<string, string | number | undefined>, ...files: FilePart[]) {
  const { body, contentType } = multipart(fields, ...files);
  const response = await t.app.inject({
    method: 'POST',
    url: materialUpload.path,
    headers: signedHeaders(t.clock, { token, headers: { 'content-type': contentType } }),
    payload: body,
  });
  const answer = response.json() as { ret: number; msg: string; body: any };
  // A ret 0 answer must be the contract's result (the test fails here otherwise).
  if (answer.ret === 0) materialUpload.result.parse(answer.body);
  return { status: response.statusCode, body: answer };
}

/** Every file under the upload folder (relative paths), partial ones included. */
export function storedFiles(uploadDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(uploadDir, path));
    }
  };
  walk(uploadDir);
  return found.sort();
}
