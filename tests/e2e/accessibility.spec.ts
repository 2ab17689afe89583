// axe-core (WCAG 2.2 A and AA rules) over every screen, guest and logged in,
// at 1280 and 390 px: any violation fails, listed with the rule and the nodes;
// so does anything the page's Content-Security-Policy refused.
//
// Adding a screen is one row in SCREENS: its path (or a function that makes
// what the screen needs and returns the path), whether it needs a logged-in
// customer, and optionally what to open before checking (a dialog).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { sha256Hex } from '../../common/signing';
import { orderAwaitingMail } from './mail-support';
import { fire, orderInReview } from './notice-support';
import { publishedPageCheck } from './page-check-support';
import { animationsSettled, asOperator, DEMO, DEMO_STAFF, e2eDatabase, logInBySession, openLoginDialog, signedApiHeaders, watchCsp } from './support';
import { interviewStepOrder } from './interview-support';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const WIDTHS = [1280, 390];

interface Screen {
  name: string;
  /** The path, or how to make what the screen needs (an order in the right state) and then its path. */
  path: string | ((baseURL: string) => Promise<string>);
  /** A customer must be logged in (the demo administrator). */
  loggedIn?: boolean;
  /** The back office: an operator's session (this demo account's) through the admin_token cookie. */
  operator?: string;
  /** Widths checked; the back office is a desktop layout (1280 px). */
  widths?: number[];
  /** Opened after the page loads, before the check (a dialog). */
  open?: (page: Page) => Promise<void>;
  /** Something that shows the screen is ready to be checked. */
  ready?: (page: Page) => Promise<void>;
}

export const SCREENS: Screen[] = [
  // Anyone
  { name: 'home', path: '/' },
  { name: 'continent', path: '/visa/continent' },
  { name: 'country', path: async () => `/visa/country/${fullestCountry()}` },
  { name: 'product', path: async () => `/visa/product/${product({ interview: false })}` },
  { name: 'about', path: '/about' },
  { name: 'cooperation', path: '/cooperation' },
  { name: 'enterprise', path: '/enterprise' },
  { name: 'download', path: '/download' },
  { name: 'open to China', path: '/open/ToChina' },
  { name: 'user agreement', path: '/agreement/user' },
  { name: 'not found', path: '/no/such/page' },
  { name: 'login dialog', path: '/', open: async (page) => void (await openLoginDialog(page)) },
  { name: 'login required', path: '/order/order-list', ready: (page) => page.getByRole('dialog').getByText('欢迎使用易签通').waitFor() },
  // A logged-in customer
  { name: 'order list', path: '/order/order-list', loggedIn: true },
  { name: 'personal center', path: '/user/personal-center', loggedIn: true },
  { name: 'create order', path: async () => `/ordering/create-order?visa_product_id=${product({ interview: true })}`, loggedIn: true },
  { name: 'upload materials', path: async (baseURL) => `/ordering/upload/${await draftOrder(baseURL, { interview: true })}`, loggedIn: true },
  { name: 'interview time', path: async (baseURL) => `/ordering/choose-interview-time/${await draftOrder(baseURL, { interview: true })}`, loggedIn: true },
  { name: 'confirm', path: async (baseURL) => `/ordering/order-confirm/${await draftOrder(baseURL, { interview: false, uploaded: true })}`, loggedIn: true },
  { name: 'order detail', path: async (baseURL) => `/order/order-detail/${await draftOrder(baseURL, { interview: true })}`, loggedIn: true },
  { name: 'reupload', path: async (baseURL) => `/order/order-reupload/${await reuploadOrder(baseURL)}`, loggedIn: true },
  { name: 'mail list', path: async (baseURL) => `/order/order-mail-list/${await orderAwaitingMail(baseURL, '安邮寄')}`, loggedIn: true },
  { name: 'page check', path: async (baseURL) => `/order/order-page-check/${await publishedPageCheck(baseURL)}`, loggedIn: true },
  {
    name: 'notices',
    // An unread and a read notice of the demo enterprise's order: the list in both styles, the bell with its count.
    path: async (baseURL) => {
      const userOrderId = await orderInReview(baseURL, DEMO.account, DEMO.password);
      await fire(userOrderId, 'material_review_failed');
      await fire(userOrderId, 'reupload_submit', { kind: 'customer', accountId: demoAccountId(), enterpriseId: demoEnterpriseId() });
      await fire(userOrderId, { event: 'material_review_passed', to: 'processing:page_check' });
      return '/notice';
    },
    loggedIn: true,
  },
  {
    name: 'interview notification',
    path: async (baseURL) => `/order/order-interview-notification/${(await interviewStepOrder(baseURL, { publish: true })).userOrderId}`,
    loggedIn: true,
  },
  {
    name: 'interview update-date dialog',
    path: async (baseURL) => `/order/order-interview-notification/${(await interviewStepOrder(baseURL, { publish: true })).userOrderId}`,
    open: async (page) => {
      await page.getByTestId('interview-change-open').click();
      await page.getByTestId('update-date-day').first().waitFor();
    },
    loggedIn: true,
  },
  {
    name: 'order detail with an open price difference',
    path: async (baseURL) => `/order/order-detail/${await priceDifferenceOrder(baseURL)}#repay-price-difference`,
    loggedIn: true,
    ready: (page) => page.getByTestId('price-difference-open').waitFor(),
  },
  // The back office (desktop only)
  { name: 'admin login', path: '/admin/login', widths: [1280] },
  { name: 'admin home', path: '/admin', operator: DEMO_STAFF.operator.account, widths: [1280] },
  { name: 'admin operators', path: '/admin/operators', operator: DEMO_STAFF.supervisor.account, widths: [1280] },
  { name: 'admin order queue', path: '/admin/orders', operator: DEMO_STAFF.supervisor.account, widths: [1280] },
  {
    name: 'admin workbench',
    path: async (baseURL) => `/admin/orders/${await reuploadOrder(baseURL, 'material_review')}`,
    operator: DEMO_STAFF.supervisor.account,
    widths: [1280],
  },
  {
    name: 'admin workbench with an open price difference',
    path: async (baseURL) => `/admin/orders/${await priceDifferenceOrder(baseURL)}`,
    operator: DEMO_STAFF.supervisor.account,
    widths: [1280],
    ready: (page) => page.getByTestId('price-difference-row').waitFor(),
  },
  {
    name: 'admin workbench (mail panel)',
    path: async (baseURL) => `/admin/orders/${await orderAwaitingMail(baseURL, '安面板')}`,
    operator: DEMO_STAFF.operator.account,
    widths: [1280],
  },
  { name: 'admin access log', path: '/admin/access-log', operator: DEMO_STAFF.supervisor.account, widths: [1280] },
];

for (const screen of SCREENS) {
  test(`axe WCAG 2.2 AA: ${screen.name}${screen.loggedIn ? ' (logged in)' : ''}`, async ({ page, baseURL }) => {
    const path = typeof screen.path === 'string' ? screen.path : await screen.path(baseURL!);
    if (screen.loggedIn) await logInBySession(page, baseURL!);
    if (screen.operator) await asOperator(page, screen.operator, baseURL!);
    const problems: string[] = [];
    // Each screen is also read for what its Content-Security-Policy refused (an
    // inline style or script without the nonce, a foreign origin): the public
    // pages have their own test (security.spec.ts); here every screen, logged in
    // and back office too, is held to it.
    const refused = watchCsp(page);
    for (const width of screen.widths ?? WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      if (screen.open) await screen.open(page);
      if (screen.ready) await screen.ready(page);
      // A dialog fades and zooms in: mid-animation its text is blended with the
      // page behind it, and axe would measure that blend, not the colours the
      // user reads. Check once every animation and transition has finished.
      await animationsSettled(page);
      const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
      for (const violation of violations) {
        const nodes = violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ').trim()}`);
        problems.push(`${width}px ${violation.id} (${violation.impact}, ${violation.nodes.length} nodes): ${violation.help}\n      ${nodes.join('\n      ')}`);
      }
    }
    problems.push(...refused.map((report) => `CSP refused on ${report}`));
    expect(problems, `${path}\n    ${problems.join('\n    ')}`).toEqual([]);
  });
}

// ---- What the screens need ----------------------------------------------

function demoAccount(): { id: number; enterprise_id: number } {
  const db = e2eDatabase();
  try {
    return db.prepare('select id, enterprise_id from account where account = ?').get(DEMO.account) as { id: number; enterprise_id: number };
  } finally {
    db.close();
  }
}
const demoAccountId = () => demoAccount().id;
const demoEnterpriseId = () => demoAccount().enterprise_id;

function fullestCountry(): number {
  const db = e2eDatabase();
  try {
    const row = db
      .prepare(
        `select visa_country_id as id from visa_product where status = 0 and channel = 0 and offline = 1
         group by visa_country_id order by count(*) desc, visa_country_id limit 1`,
      )
      .get() as { id: number };
    return row.id;
  } finally {
    db.close();
  }
}

/** A listed, orderable product with or without an interview step (with a visa photo). */
function product({ interview }: { interview: boolean }): number {
  const db = e2eDatabase();
  try {
    const row = db
      .prepare(
        `select visa_product_id as id from visa_product
         where status = 0 and channel = 0 and offline = 1 and need_interview = ? and visa_photo_id <> 0 and stay_days between 1 and 60
         order by visa_product_id limit 1`,
      )
      .get(interview ? 1 : 0) as { id: number } | undefined;
    if (!row) throw new Error(`the demo catalogue has no orderable product with need_interview=${interview}`);
    return row.id;
  } finally {
    db.close();
  }
}

async function api<T>(baseURL: string, path: string, payload: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { ...signedApiHeaders(token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

/** 1×1 white PNG: the upload call checks the bytes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC', 'base64');

/** A draft order of the demo enterprise; with `uploaded`, every required material and photo uploaded. */
async function draftOrder(baseURL: string, { interview, uploaded = false }: { interview: boolean; uploaded?: boolean }): Promise<number> {
  const { token } = await api<{ token: string }>(baseURL, '/www/account_login', { account: DEMO.account, password: sha256Hex(DEMO.password) });
  const departure = new Date(Date.now() + 30 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id } = await api<{ user_order_id: number }>(
    baseURL,
    '/www/order/order_create',
    {
      visa_product_id: product({ interview }),
      departure_date: departure,
      applicants: [
        { name: '周雨桐', identity_id: 0, mobile_phone: '13900139011' },
        { name: '周小满', identity_id: 3, mobile_phone: '13900139012' },
      ],
    },
    token,
  );
  if (uploaded) {
    const detail = await api<{ missing_materials: Array<{ applicant_id: number; material_id: number | null }> }>(
      baseURL,
      '/www/order/order_detail_get',
      { user_order_id },
      token,
    );
    for (const item of detail.missing_materials) {
      const form = new FormData();
      form.append('user_order_id', String(user_order_id));
      form.append('applicant_id', String(item.applicant_id));
      if (item.material_id === null) form.append('kind', 'photo');
      else form.append('material_id', String(item.material_id));
      form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'scan.png');
      const response = await fetch(`${baseURL}/www/order/material_upload`, { method: 'POST', headers: signedApiHeaders(token), body: form });
      const envelope = (await response.json()) as { ret: number; msg: string };
      if (envelope.ret !== 0) throw new Error(`material_upload: ${envelope.ret} ${envelope.msg}`);
    }
  }
  return user_order_id;
}

/**
 * An order as the back office leaves it: paid and in `step` — for reupload_needed its first file
 * failed with a memo (written straight into the database: the journey spec does it through the screens).
 */
async function reuploadOrder(baseURL: string, step: 'reupload_needed' | 'material_review' = 'reupload_needed'): Promise<number> {
  const id = await draftOrder(baseURL, { interview: false, uploaded: true });
  const db = e2eDatabase();
  try {
    const now = Date.now();
    db.prepare(
      `update user_order set status = 'processing', step = ?, paid_at = ?, expires_at = null, step_entered_at = ?, step_due_at = ? where user_order_id = ?`,
    ).run(step, now, now, now + 86_400_000, id);
    if (step === 'reupload_needed') {
      db.prepare(
        `update order_material_file set review_status = 'no_pass', no_pass_memo = '模糊不清；请上传彩色扫描件' where file_id = (select min(file_id) from order_material_file where user_order_id = ?)`,
      ).run(id);
      db.prepare(`update order_material_file set review_status = 'passed' where user_order_id = ? and review_status = 'pending'`).run(id);
    }
  } finally {
    db.close();
  }
  return id;
}

/** A processing order with an open ¥50 price difference (as the operator's request writes it: the row and the order's open amount). */
async function priceDifferenceOrder(baseURL: string): Promise<number> {
  const id = await reuploadOrder(baseURL, 'material_review');
  const db = e2eDatabase();
  try {
    const now = Date.now();
    db.prepare(
      `insert into price_difference (user_order_id, amount, reason, status, requested_by, created_at, updated_at) values (?, 5000, '使馆签证费上调，需补交差额', 'open', 1, ?, ?)`,
    ).run(id, now, now);
    db.prepare(`update user_order set price_difference_due = 5000, version = version + 1 where user_order_id = ?`).run(id);
  } finally {
    db.close();
  }
  return id;
}
