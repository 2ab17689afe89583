// Orders in a given state for the e2e specs, made for the test's own customer
// and operator through the app's own code paths (decision 0020's factories,
// for orders): the customer's signed /www calls (create, upload, interview
// time, return address, confirm, page-check confirm, re-upload), the
// payment on the sandbox (payment_create, the sandbox's pay page and its
// signed notification), and the back office's /admin-api calls with the
// operator's session (take, per-file review, page-check pages and publish,
// interview notice, price difference). No status column is written by hand:
// every state is the lifecycle's, reached the way the screens reach it.
// (The journeys' own setups — mail-support, page-check-support,
// interview-support, results-support, notice-support — take a shorter way:
// they fire the lifecycle's events in process (confirm, pay, assign, …)
// without those steps' own checks; no status column is written there either.)
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import type { InsertedProduct, ProductOptions } from '../../server/test-support/factories';
import { FIXTURES } from '../fixtures/index';
import { apiCall, apiUpload, createProduct, operatorSessionToken, type Parties, type StaffMember } from './support';

/** The server, and whose the order is and who works on it (the test's own customer and staff member). */
export interface OrderParties extends Parties {
  baseURL: string;
}

/**
 * Where the order is brought, each stage after the one before it:
 * - draft: created (two applicants);
 * - uploaded: every required material and the photo uploaded;
 * - pending_payment: interview times chosen (when the product has an interview), a return address saved, confirmed;
 * - material_review: paid on the sandbox (资料审核中, nobody has taken it);
 * - reupload_needed: taken by the operator, the first file failed (模糊不清, with a memo), the others passed;
 * - reviewed: taken, every file passed: 待邮寄资料 when the product has mailed paper materials, else 待确认核对页;
 * - pages_published: (a product without mailed materials) each applicant's application pages uploaded and published;
 * - interview: (a product with an interview, without mailed materials) the customer confirmed every applicant's
 *   pages, so the order is 待面试/录指纹, and the operator published each applicant's interview notice.
 */
export type OrderStage = 'draft' | 'uploaded' | 'pending_payment' | 'material_review' | 'reupload_needed' | 'reviewed' | 'pages_published' | 'interview';

const STAGES: OrderStage[] = ['draft', 'uploaded', 'pending_payment', 'material_review', 'reupload_needed', 'reviewed', 'pages_published', 'interview'];

/** The product each stage needs when the caller gives none. */
function productFor(stage: OrderStage): ProductOptions {
  if (stage === 'interview') return { interview: true, district: 'own', mailed: false, photo: true };
  if (stage === 'pages_published') return { mailed: false, photo: true };
  return { photo: true };
}

const sessions = new WeakMap<StaffMember, Promise<string>>();
/** One back-office session per staff member (the X-Token of its /admin-api calls). */
export function staffToken(operator: StaffMember): Promise<string> {
  let token = sessions.get(operator);
  if (!token) {
    token = operatorSessionToken(operator);
    sessions.set(operator, token);
  }
  return token;
}

/** Tomorrow + n days in China, YYYY-MM-DD. */
function chinaDate(daysAhead: number): string {
  return new Date(Date.now() + daysAhead * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
}

interface Workbench {
  order: { version: number; step: string | null };
  applicants: Array<{ items: Array<{ files: Array<{ file_id: number; review_status: string }> }> }>;
}

/**
 * An order of the customer brought to `stage` (see OrderStage); the product is the test's own
 * (createProduct), one that suits the stage unless given. Returns its id and the product.
 */
export async function orderAt(
  parties: OrderParties,
  stage: OrderStage,
  options: {
    product?: InsertedProduct;
    applicants?: Array<{ name: string; identity_id: number; mobile_phone: string; email?: string }>;
    /** The first checklist material's file (not the photo) instead of the JPEG scan (a PDF, say). */
    firstFile?: { path: string; type: string; name: string };
  } = {},
): Promise<{ userOrderId: number; product: InsertedProduct }> {
  const { baseURL, customer } = parties;
  const reached = (s: OrderStage) => STAGES.indexOf(stage) >= STAGES.indexOf(s);
  const product = options.product ?? (await createProduct(productFor(stage)));
  const customerCall = <T>(path: string, payload: unknown) => apiCall<T>(baseURL, path, payload, customer.token);
  const staffCall = async <T>(path: string, payload: unknown) => apiCall<T>(baseURL, path, payload, await staffToken(parties.operator));

  const { user_order_id: userOrderId } = await customerCall<{ user_order_id: number }>('/www/order/order_create', {
    visa_product_id: product.visa_product_id,
    departure_date: chinaDate(45),
    applicants: options.applicants ?? [
      { name: '周雨桐', identity_id: 0, mobile_phone: '13900139011' },
      { name: '周小满', identity_id: 3, mobile_phone: '13900139012' },
    ],
  });
  const done = { userOrderId, product };
  if (!reached('uploaded')) return done;

  // Every required material and the photo (a real JPEG: uploads are checked by content).
  const scan = new Blob([new Uint8Array(readFileSync(FIXTURES.photo))], { type: 'image/jpeg' });
  const detail = await customerCall<{ missing_materials: Array<{ applicant_id: number; material_id: number | null }> }>('/www/order/order_detail_get', {
    user_order_id: userOrderId,
  });
  const firstMaterial = detail.missing_materials.find((item) => item.material_id !== null);
  for (const item of detail.missing_materials) {
    const first = item === firstMaterial ? options.firstFile : undefined;
    const fields = {
      user_order_id: userOrderId,
      applicant_id: item.applicant_id,
      ...(item.material_id === null ? { kind: 'photo' } : { material_id: item.material_id }),
    };
    const file = first ? new Blob([new Uint8Array(readFileSync(first.path))], { type: first.type }) : scan;
    await apiUpload(baseURL, '/www/order/material_upload', fields, file, first?.name ?? 'scan.jpg', customer.token);
  }
  if (!reached('pending_payment')) return done;

  if (product.need_interview) {
    const slots = await customerCall<{
      dates: Array<{ slots: Array<{ interview_slot_id: number; remaining: number; full: boolean }> }>;
      applicants: Array<{ applicant_id: number }>;
    }>('/www/order/interview_slot_list', { user_order_id: userOrderId });
    const slot = slots.dates.flatMap((d) => d.slots).find((s) => !s.full && s.remaining >= slots.applicants.length)!;
    await customerCall('/www/order/interview_time_choose', {
      user_order_id: userOrderId,
      choices: slots.applicants.map((a) => ({ applicant_id: a.applicant_id, interview_slot_id: slot.interview_slot_id })),
    });
  }
  const address = await customerCall<{ address_id: number }>('/www/address/address_save', {
    kind: 'return',
    name: '周雨桐',
    mobile_phone: '13900139011',
    province_code: '440000',
    city_code: '440300',
    county_code: '440305',
    detail: '科技园南区 2 号',
  });
  await customerCall('/www/order/order_confirm', { user_order_id: userOrderId, address_id: address.address_id, insurance_plan_id: null });
  if (!reached('material_review')) return done;

  // Paid on the sandbox: its pay page confirmed, its signed notification moves the order on.
  const payment = await customerCall<{ out_trade_no: string }>('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' });
  const confirmed = await fetch(`${baseURL}/sandbox/pay/${payment.out_trade_no}/confirm`, { method: 'POST', redirect: 'manual' });
  expect(confirmed.status).toBeLessThan(400);
  await expect
    .poll(async () => (await customerCall<{ status: string }>('/www/order/order_detail_get', { user_order_id: userOrderId })).status, {
      timeout: 15_000,
      // (The sandbox notifies after PAYMENT_SANDBOX_NOTIFY_DELAY_MS, 800 ms: asked often, not Playwright's growing default steps.)
      intervals: [200],
    })
    .toBe('processing');
  if (!reached('reupload_needed')) return done;

  // The operator takes it and reviews every file (the round ends by itself with the last one).
  await staffCall('/admin-api/order/take', { user_order_id: userOrderId });
  const workbench = await staffCall<Workbench>('/admin-api/order/workbench', { user_order_id: userOrderId });
  const files = workbench.applicants.flatMap((a) => a.items.flatMap((item) => item.files)).filter((f) => f.review_status === 'pending');
  let version = workbench.order.version;
  for (const [index, file] of files.entries()) {
    const fail = stage === 'reupload_needed' && index === 0;
    const answer = await staffCall<{ version: number }>('/admin-api/order/file_review', {
      user_order_id: userOrderId,
      file_id: file.file_id,
      version,
      result: fail ? 'no_pass' : 'pass',
      reasons: fail ? ['blurred'] : [],
      memo: fail ? '请上传彩色扫描件' : null,
    });
    version = answer.version;
  }
  if (!reached('pages_published')) return done;

  // The application pages: a PDF and a JPEG for the first applicant, a PNG for the others; then published.
  const pages = await staffCall<{ version: number; applicants: Array<{ applicant_id: number }> }>('/admin-api/page_check/detail', {
    user_order_id: userOrderId,
  });
  const uploads: Array<[keyof typeof FIXTURES, string, string]> = [
    ['pdf', 'application/pdf', '申请表.pdf'],
    ['jpeg', 'image/jpeg', '申请表-第2页.jpg'],
  ];
  for (const [index, applicant] of pages.applicants.entries()) {
    for (const [fixture, type, name] of index === 0 ? uploads : [['png', 'image/png', '申请表.png'] as const]) {
      const file = new Blob([new Uint8Array(readFileSync(FIXTURES[fixture]))], { type });
      await apiUpload(
        baseURL,
        '/admin-api/page_check/upload',
        { user_order_id: userOrderId, applicant_id: applicant.applicant_id },
        file,
        name,
        await staffToken(parties.operator),
      );
    }
  }
  for (const applicant of pages.applicants) {
    const { version: current } = await staffCall<{ version: number }>('/admin-api/page_check/detail', { user_order_id: userOrderId });
    await staffCall('/admin-api/page_check/publish', { user_order_id: userOrderId, applicant_id: applicant.applicant_id, version: current });
  }
  if (!reached('interview')) return done;

  // The customer confirms every applicant's pages: the order goes to 待面试/录指纹; the operator publishes the notices.
  for (const applicant of pages.applicants) {
    const { version: current } = await customerCall<{ version: number }>('/www/order/page_check_detail', { user_order_id: userOrderId });
    await customerCall('/www/order/page_check_confirm', { user_order_id: userOrderId, applicant_id: applicant.applicant_id, version: current });
  }
  const panel = await staffCall<{ version: number; applicants: Array<{ applicant_id: number; form: Record<string, unknown> }> }>(
    '/admin-api/order/interview_panel',
    { user_order_id: userOrderId },
  );
  let panelVersion = panel.version;
  for (const applicant of panel.applicants) {
    const answer = await staffCall<{ version: number }>('/admin-api/order/interview_notice_publish', {
      ...applicant.form,
      user_order_id: userOrderId,
      applicant_id: applicant.applicant_id,
      version: panelVersion,
    });
    panelVersion = answer.version;
  }
  return done;
}

/** The operator asks the customer for a price difference (补差价) on a processing order, as the workbench's panel does. */
export async function requestPriceDifference(parties: OrderParties, userOrderId: number, amount: number, reason: string): Promise<void> {
  const { baseURL, operator } = parties;
  const token = await staffToken(operator);
  const { version } = await apiCall<{ version: number }>(baseURL, '/admin-api/order/price_difference_list', { user_order_id: userOrderId }, token);
  await apiCall(baseURL, '/admin-api/order/price_difference_request', { user_order_id: userOrderId, version, amount, reason }, token);
}

/**
 * After reupload_needed: the customer replaces the failed file and submits again (资料审核中, round 2), as
 * /order/order-reupload does; the operator passes it, which ends the round (资料审核通过).
 */
export async function reuploadAndPass(parties: OrderParties, userOrderId: number): Promise<void> {
  const { baseURL, customer } = parties;
  const token = await staffToken(parties.operator);
  const workbench = await apiCall<{
    applicants: Array<{ applicant_id: number; items: Array<{ material_id: number | null; files: Array<{ file_id: number; review_status: string }> }> }>;
  }>(baseURL, '/admin-api/order/workbench', { user_order_id: userOrderId }, token);
  const failed = workbench.applicants.flatMap((applicant) =>
    applicant.items.flatMap((item) => item.files.filter((f) => f.review_status === 'no_pass').map((file) => ({ applicant, item, file }))),
  );
  const scan = new Blob([new Uint8Array(readFileSync(FIXTURES.jpeg))], { type: 'image/jpeg' });
  for (const { applicant, item, file } of failed) {
    const fields = {
      user_order_id: userOrderId,
      applicant_id: applicant.applicant_id,
      ...(item.material_id === null ? { kind: 'photo' } : { material_id: item.material_id }),
      replace_file_id: file.file_id,
    };
    await apiUpload(baseURL, '/www/order/material_upload', fields, scan, 'scan-again.jpg', customer.token);
  }
  await apiCall(baseURL, '/www/order/reupload_submit', { user_order_id: userOrderId }, customer.token);
  const again = await apiCall<Workbench>(baseURL, '/admin-api/order/workbench', { user_order_id: userOrderId }, token);
  let version = again.order.version;
  for (const file of again.applicants.flatMap((a) => a.items.flatMap((item) => item.files)).filter((f) => f.review_status === 'pending')) {
    version = (
      await apiCall<{ version: number }>(
        baseURL,
        '/admin-api/order/file_review',
        { user_order_id: userOrderId, file_id: file.file_id, version, result: 'pass', reasons: [], memo: null },
        token,
      )
    ).version;
  }
}
