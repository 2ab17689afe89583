// axe-core (WCAG 2.2 A and AA rules) over every screen, guest and logged in,
// at 1280 and 390 px: any violation fails, listed with the rule and the nodes;
// so does anything the page's Content-Security-Policy refused, and a page whose
// server HTML React could not hydrate.
//
// Adding a screen is one row in SCREENS: its path (or a function that makes
// what the screen needs and returns the path), whether it needs a logged-in
// customer, and optionally what to open before checking (a dialog).
//
// Each test makes its own data: a logged-in row's customer is the test's own
// (loggedInTest), a back-office row's operator or supervisor too
// (createOperator), and the orders a screen shows are that customer's, brought
// to their state by order-factories.ts through the app's own calls. The guest
// catalogue screens read the catalogue the demo mode seeds (a country with
// many products, a real product page).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { FIXTURES } from '../fixtures/index';
import type { OperatorRoleValue } from '../../server/db/schema';
import type { ProductOptions } from '../../server/test-support/factories';
import { type OrderParties, type OrderStage, orderAt, requestPriceDifference, reuploadAndPass, staffToken } from './order-factories';
import { addDays, chinaDate } from '../../common/order';
import { productWithReviews } from './catalogue-places-support';
import { orderAtEmbassy, orderWithResults } from './results-support';
import { pickupWindowOptions } from '../../common/courier';
import { downloadWorkbook, editWorkbook, uploadWorkbook } from './catalogue-workbook-support';
import {
  animationsSettled,
  apiCall,
  asOperator,
  createOperator,
  createProduct,
  e2eDatabase,
  hydrated,
  loggedInCustomer,
  type LoggedInCustomer,
  loggedInTest,
  openEveryWorkbenchFold,
  openLoginDialog,
  type StaffMember,
  watchCsp,
  watchHydration,
} from './support';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const WIDTHS = [1280, 390];

/** What a screen's path function may make its data with: the test's own customer and staff member, made when first asked for. */
interface Made {
  baseURL: string;
  /** The logged-in customer of the test (a logged-in row's; otherwise one made for the data only). */
  customer(): Promise<LoggedInCustomer>;
  /** The customer and the test's staff member (the row's role, an operator when the row has none). */
  parties(): Promise<OrderParties>;
}

export interface Screen {
  name: string;
  /** The path, or how to make what the screen needs (an order in the right state) and then its path. */
  path: string | ((made: Made) => Promise<string>);
  /** A customer must be logged in (the test's own). */
  loggedIn?: boolean;
  /** The back office: a session of the test's own staff member of this role, through the admin_token cookie. */
  operator?: OperatorRoleValue;
  /** Widths checked; the back office is checked at 1280 px, and at 390 px where issue 27 made it usable on a phone. */
  widths?: number[];
  /** Opened after the page loads, before the check (a dialog). */
  open?: (page: Page) => Promise<void>;
  /** Something that shows the screen is ready to be checked. */
  ready?: (page: Page) => Promise<void>;
  /**
   * Check only what `open` opened (a CSS selector): the page behind a dialog is
   * the same as in its own row, checked there; axe over a whole back-office
   * page again costs seconds and, on a busy machine, the test's time limit.
   */
  within?: string;
}

/** An antd Modal, as `within`. */
const DIALOG = '.ant-modal-root';

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
  { name: 'login dialog', path: '/', open: async (page) => void (await openLoginDialog(page)), within: DIALOG },
  { name: 'login required', path: '/order/order-list', ready: (page) => page.getByRole('dialog').getByText('欢迎使用易签通').waitFor() },
  // A logged-in customer
  { name: 'order list', path: '/order/order-list', loggedIn: true },
  { name: 'personal center', path: '/user/personal-center', loggedIn: true },
  // Issues 28 and 29's pages: saved travellers, colleagues, invoices, and an invitation's page (here without its link's token).
  { name: 'travellers', path: '/user/travellers', loggedIn: true },
  { name: 'team', path: '/user/team', loggedIn: true },
  { name: 'invoices', path: '/user/invoice', loggedIn: true },
  { name: 'team invitation', path: '/team/join' },
  { name: 'create order', path: async () => `/ordering/create-order?visa_product_id=${product({ interview: true })}`, loggedIn: true },
  { name: 'upload materials', path: async (made) => `/ordering/upload/${await order(made, 'draft', WITH_INTERVIEW)}`, loggedIn: true },
  { name: 'interview time', path: async (made) => `/ordering/choose-interview-time/${await order(made, 'draft', WITH_INTERVIEW)}`, loggedIn: true },
  { name: 'confirm', path: async (made) => `/ordering/order-confirm/${await order(made, 'uploaded', { photo: true })}`, loggedIn: true },
  { name: 'order detail', path: async (made) => `/order/order-detail/${await order(made, 'draft', WITH_INTERVIEW)}`, loggedIn: true },
  { name: 'reupload', path: async (made) => `/order/order-reupload/${await order(made, 'reupload_needed')}`, loggedIn: true },
  { name: 'mail list', path: async (made) => `/order/order-mail-list/${await order(made, 'reviewed')}`, loggedIn: true },
  { name: 'page check', path: async (made) => `/order/order-page-check/${await order(made, 'pages_published')}`, loggedIn: true },
  {
    name: 'notices',
    // A read and an unread notice of the customer's order (the list in both styles, the bell with its count): its review
    // failed (需要重新上传资料), the customer re-uploaded, the review passed (资料审核通过); the first is read.
    path: async (made) => {
      const parties = await made.parties();
      const { userOrderId } = await orderAt(parties, 'reupload_needed', { product: await createProduct({ mailed: false, photo: true }) });
      await reuploadAndPass(parties, userOrderId);
      const notices = await apiCall<{ page_data: Array<{ notice_id: number; kind: string }> }>(
        made.baseURL,
        '/www/notice/notice_list',
        { page: 1 },
        parties.customer.token,
      );
      const failed = notices.page_data.find((notice) => notice.kind === 'material_review_failed')!;
      await apiCall(made.baseURL, '/www/notice/notice_read', { notice_id: failed.notice_id }, parties.customer.token);
      return '/notice';
    },
    loggedIn: true,
  },
  {
    name: 'interview notification',
    path: async (made) => `/order/order-interview-notification/${await interviewOrder(made)}`,
    loggedIn: true,
  },
  {
    name: 'interview update-date dialog',
    path: async (made) => `/order/order-interview-notification/${await interviewOrder(made)}`,
    open: async (page) => {
      await page.getByTestId('interview-change-open').click();
      await page.getByTestId('update-date-day').first().waitFor();
    },
    loggedIn: true,
    within: DIALOG,
  },
  {
    name: 'order detail with an open price difference',
    path: async (made) => `/order/order-detail/${await priceDifferenceOrder(made)}#repay-price-difference`,
    loggedIn: true,
    ready: (page) => page.getByTestId('price-difference-open').waitFor(),
  },
  // The customer's dialogs, each checked open (issue 27).
  {
    name: 'confirm, return address book',
    path: async (made) => `/ordering/order-confirm/${await order(made, 'uploaded', { photo: true })}`,
    open: async (page) => {
      await page.getByTestId('choose-return-address').click();
      await page.getByTestId('address-dialog-return').waitFor();
    },
    loggedIn: true,
    within: DIALOG,
  },
  {
    name: 'confirm, new address form',
    path: async (made) => `/ordering/order-confirm/${await order(made, 'uploaded', { photo: true })}`,
    open: async (page) => {
      await page.getByTestId('choose-return-address').click();
      // Under load a click while the dialog zooms in was lost once (CI: the button focused, no form):
      // click again until the form is there.
      const form = page.getByTestId('address-form');
      await expect(async () => {
        if (!(await form.isVisible())) await page.getByTestId('address-add-return').click({ timeout: 3_000 });
        await form.waitFor({ timeout: 3_000 });
      }).toPass({ timeout: 30_000 });
    },
    loggedIn: true,
    within: DIALOG,
  },
  {
    name: 'confirm, insurance chosen and its terms dialog',
    path: async (made) => `/ordering/order-confirm/${await order(made, 'uploaded', { photo: true })}`,
    open: async (page) => {
      await page.getByTestId('insurance-plan').first().click();
      await page.getByTestId('insurance-terms-link').click();
      await page.getByTestId('terms-text').waitFor();
    },
    loggedIn: true,
  },
  {
    name: 'confirm, pay dialog',
    path: async (made) => `/ordering/order-confirm/${await order(made, 'pending_payment', { photo: true })}`,
    open: async (page) => {
      await page.getByTestId('confirm-submit').click();
      await page.getByRole('dialog').waitFor();
    },
    loggedIn: true,
    within: DIALOG,
  },
  {
    name: 'mail list, self-express dialog',
    path: async (made) => `/order/order-mail-list/${await order(made, 'reviewed')}`,
    open: async (page) => {
      await page.getByTestId('mail-self-express').click();
      await page.getByTestId('self-express-company').waitFor();
    },
    loggedIn: true,
    within: DIALOG,
  },
  {
    name: 'upload, image viewer',
    path: async (made) => `/ordering/upload/${await order(made, 'uploaded', { photo: true })}`,
    open: async (page) => {
      await page.locator('button.up-file-preview').first().click();
      await page.locator('.viewer-container .viewer-toolbar').first().waitFor();
    },
    loggedIn: true,
    within: '.viewer-container',
  },
  // The back office (desktop only)
  { name: 'admin login', path: '/admin/login', widths: [1280] },
  { name: 'admin home', path: '/admin', operator: 'operator', widths: [1280] },
  { name: 'admin operators', path: '/admin/operators', operator: 'supervisor', widths: [1280] },
  { name: 'admin order queue', path: '/admin/orders', operator: 'supervisor', widths: [1280, 390] },
  // An empty queue (a new operator's 我的待办): the empty text's contrast, and the table still scrollable by keyboard.
  { name: 'admin order queue, empty', path: '/admin/orders?view=mine', operator: 'operator', widths: [1280] },
  // A page the operator's role may not open: the 403 page inside the back office.
  { name: 'admin forbidden', path: '/admin/access-log', operator: 'operator', widths: [1280, 390] },
  // The workbench (issue 27): every panel in each state it can show — the current step's task open, and then every
  // collapsed panel opened; the keyboard review with a PDF drawn and with its no-pass dialog open.
  {
    name: 'admin workbench',
    path: async (made) => `/admin/orders/${await order(made, 'material_review')}`,
    operator: 'supervisor',
    widths: [1280, 390],
    ready: (page) => page.getByTestId('fast-review').waitFor(),
  },
  {
    name: 'admin workbench, every panel opened (资料审核中)',
    path: async (made) => `/admin/orders/${await order(made, 'material_review')}`,
    operator: 'operator',
    widths: [1280, 390],
    open: openEveryWorkbenchFold,
  },
  {
    name: 'admin workbench, fast review of a PDF',
    path: async (made) =>
      `/admin/orders/${(await orderAt(await made.parties(), 'material_review', { firstFile: { path: FIXTURES.pdf, type: 'application/pdf', name: 'bank-statement.pdf' } })).userOrderId}`,
    operator: 'supervisor',
    widths: [1280, 390],
    ready: (page) => expect(page.getByTestId('review-pdf')).toHaveAttribute('data-state', 'shown', { timeout: 20_000 }),
  },
  {
    name: 'admin workbench, fast review with the no-pass dialog open',
    path: async (made) => `/admin/orders/${await order(made, 'material_review')}`,
    operator: 'supervisor',
    widths: [1280],
    open: async (page) => {
      await hydrated(page);
      await page.keyboard.press('f');
      await page.getByRole('dialog').getByRole('checkbox').first().waitFor();
    },
    within: DIALOG,
  },
  {
    name: 'admin workbench with an open price difference',
    path: async (made) => `/admin/orders/${await priceDifferenceOrder(made)}`,
    operator: 'supervisor',
    widths: [1280],
    open: openEveryWorkbenchFold,
    ready: (page) => page.getByTestId('price-difference-row').waitFor(),
  },
  {
    name: 'admin workbench, every panel opened (待重新上传资料)',
    path: async (made) => `/admin/orders/${await order(made, 'reupload_needed')}`,
    operator: 'operator',
    widths: [1280],
    open: openEveryWorkbenchFold,
  },
  {
    name: 'admin workbench (mail panel)',
    path: async (made) => `/admin/orders/${await order(made, 'reviewed')}`,
    operator: 'operator',
    widths: [1280, 390],
    open: openEveryWorkbenchFold,
  },
  {
    name: 'admin workbench (page check panel)',
    path: async (made) => `/admin/orders/${await order(made, 'pages_published')}`,
    operator: 'operator',
    widths: [1280],
    open: openEveryWorkbenchFold,
  },
  {
    name: 'admin workbench (interview panel)',
    path: async (made) => `/admin/orders/${await interviewOrder(made)}`,
    operator: 'operator',
    widths: [1280],
    open: openEveryWorkbenchFold,
  },
  {
    // 已递交使馆: the results panel is the current step's task.
    name: 'admin workbench (已递交使馆, results panel)',
    path: async (made) => `/admin/orders/${(await orderAtEmbassy(made.baseURL, await made.parties(), ['韩知夏'])).userOrderId}`,
    operator: 'operator',
    widths: [1280],
    open: openEveryWorkbenchFold,
    ready: (page) => page.getByText('已递交使馆').first().waitFor(),
  },
  {
    // 护照寄回中: results recorded, the passports handed to the courier (the ship-back panel with its parcel).
    name: 'admin workbench (护照寄回中)',
    path: async (made) => `/admin/orders/${await passportsOnTheWayBack(made)}`,
    operator: 'operator',
    widths: [1280],
    open: openEveryWorkbenchFold,
    ready: (page) => page.getByText('护照寄回中').first().waitFor(),
  },
  { name: 'admin access log', path: '/admin/access-log', operator: 'supervisor', widths: [1280] },
  { name: 'admin invoices', path: '/admin/invoices', operator: 'supervisor', widths: [1280] },
  {
    name: 'admin interview slots (slot dialog)',
    path: async () => {
      // A consulate of the row's own with a booked-out and an open slot a week ahead.
      const { consular_district_id: district } = await createProduct({ interview: true, district: 'own' });
      const day = addDays(chinaDate(Date.now()), 7);
      const db = e2eDatabase();
      try {
        const insert = db.prepare(
          'insert into interview_slot (consular_district_id, slot_date, start_time, end_time, capacity, booked) values (?, ?, ?, ?, ?, ?)',
        );
        insert.run(district, day, '08:15', '08:45', 2, 2);
        insert.run(district, day, '13:00', '13:40', 2, 0);
      } finally {
        db.close();
      }
      return `/admin/catalogue/slots?district=${district}`;
    },
    operator: 'supervisor',
    widths: [1280],
    open: async (page) => {
      await page.getByTestId('slots-chip').first().click();
      await page.getByRole('dialog').waitFor();
    },
    within: DIALOG,
  },
  {
    name: 'admin catalogue reviews',
    path: async () => `/admin/catalogue/reviews?product=${(await productWithReviews([5, 4, 1])).visaProductId}`,
    operator: 'supervisor',
    widths: [1280],
  },
  { name: 'admin catalogue countries', path: '/admin/catalogue/countries', operator: 'supervisor', widths: [1280] },
  {
    name: 'admin catalogue country editor',
    path: async () => `/admin/catalogue/countries/edit?country=${(await createProduct()).visa_country_id}`,
    operator: 'supervisor',
    widths: [1280],
  },
  {
    // The product editor on its checklist tab: rows with drag handles and move buttons.
    name: 'admin catalogue product editor (材料清单)',
    path: async () => `/admin/catalogue/edit?product=${(await createProduct()).visa_product_id}`,
    operator: 'supervisor',
    widths: [1280],
    open: async (page) => {
      await hydrated(page);
      await page.getByRole('tab', { name: '材料清单' }).click();
      await page.getByTestId('list-drag-handle').first().waitFor();
    },
  },
  // The catalogue workbook's preview (issue 26): an edited price listed, not imported.
  {
    name: 'admin catalogue workbook preview dialog',
    path: async () => {
      workbookProductId = (await createProduct()).visa_product_id;
      return '/admin/catalogue';
    },
    operator: 'supervisor',
    widths: [1280],
    open: async (page) => {
      const edited = await editWorkbook(await downloadWorkbook(page), [
        { sheet: '产品', where: { header: '产品编号', value: workbookProductId }, header: '售价（元）', value: 388 },
      ]);
      await uploadWorkbook(page, edited);
    },
    within: DIALOG,
  },
];

/** The product whose price the workbook preview's row edits. */
let workbookProductId = 0;

/** Checks one screen; `customer` is the logged-in row's. */
async function check(page: Page, baseURL: string, screen: Screen, customer?: LoggedInCustomer): Promise<void> {
  let own: Promise<LoggedInCustomer> | undefined;
  let staff: Promise<StaffMember> | undefined;
  const made: Made = {
    baseURL,
    customer: () => (customer ? Promise.resolve(customer) : (own ??= loggedInCustomer(baseURL))),
    parties: async () => ({ baseURL, customer: await made.customer(), operator: await (staff ??= createOperator({ role: screen.operator ?? 'operator' })) }),
  };
  const path = typeof screen.path === 'string' ? screen.path : await screen.path(made);
  if (screen.operator) await asOperator(page, await (staff ??= createOperator({ role: screen.operator })), baseURL);
  const problems: string[] = [];
  // Each screen is also read for what its Content-Security-Policy refused (an
  // inline style or script without the nonce, a foreign origin): the public
  // pages have their own test (security.spec.ts); here every screen, logged in
  // and back office too, is held to it.
  const refused = watchCsp(page);
  // And hydrated without a mismatch: the server's HTML is what the browser keeps.
  const mismatches = watchHydration(page);
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
    const axe = new AxeBuilder({ page }).withTags(WCAG_TAGS);
    if (screen.within) axe.include(screen.within);
    const { violations } = await axe.analyze();
    for (const violation of violations) {
      const nodes = violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ').trim()}`);
      problems.push(`${width}px ${violation.id} (${violation.impact}, ${violation.nodes.length} nodes): ${violation.help}\n      ${nodes.join('\n      ')}`);
    }
  }
  problems.push(...refused.map((report) => `CSP refused on ${report}`));
  problems.push(...mismatches.map((report) => `hydration failed on ${report}`));
  expect(problems, `${path}\n    ${problems.join('\n    ')}`).toEqual([]);
}

/**
 * One test per screen that `which` takes. Two spec files register them —
 * accessibility.spec.ts the site's screens, accessibility-backoffice.spec.ts
 * the back office's — so that `npm test` can run them in its two parts.
 */
export function registerScreens(which: (screen: Screen) => boolean): void {
  for (const screen of SCREENS.filter(which)) {
    const title = `axe WCAG 2.2 AA: ${screen.name}${screen.loggedIn ? ' (logged in)' : ''}`;
    if (screen.loggedIn) loggedInTest(title, ({ page, baseURL, customer }) => check(page, baseURL!, screen, customer));
    else test(title, ({ page, baseURL }) => check(page, baseURL!, screen));
  }
}

// ---- What the screens need ----------------------------------------------

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

/** An order of the test's customer at `stage` (order-factories.ts), of a product of its own: `product`'s, or the one the stage needs. */
async function order(made: Made, stage: OrderStage, product?: ProductOptions): Promise<number> {
  return (await orderAt(await made.parties(), stage, { product: product && (await createProduct(product)) })).userOrderId;
}

/** 护照寄回中: a visa issued for its one applicant, then the passports booked with the courier as the ship-back panel does. */
async function passportsOnTheWayBack(made: Made): Promise<number> {
  const parties = await made.parties();
  const userOrderId = await orderWithResults(made.baseURL, parties, '韩寄回', ['issued']);
  const token = await staffToken(parties.operator);
  const { order } = await apiCall<{ order: { version: number } }>(made.baseURL, '/admin-api/order/workbench', { user_order_id: userOrderId }, token);
  const [window] = pickupWindowOptions(Date.now());
  await apiCall(made.baseURL, '/admin-api/order/ship_back_send', { user_order_id: userOrderId, version: order.version, pickup_window: window }, token);
  return userOrderId;
}

/** In 待面试/录指纹 with the notice published, for one applicant (as before: the page has one 申请改期 button then). */
async function interviewOrder(made: Made): Promise<number> {
  const applicants = [{ name: '沈知远', identity_id: 0, mobile_phone: '13700137001' }];
  return (await orderAt(await made.parties(), 'interview', { applicants })).userOrderId;
}

/** A product with an interview at its own consulate (and a visa photo). */
const WITH_INTERVIEW: ProductOptions = { interview: true, district: 'own', photo: true };

/** A processing order (资料审核中) with an open ¥50 price difference, asked by the test's staff member as the workbench's panel asks it. */
async function priceDifferenceOrder(made: Made): Promise<number> {
  const parties = await made.parties();
  const { userOrderId } = await orderAt(parties, 'material_review', { product: await createProduct({ photo: true }) });
  await requestPriceDifference(parties, userOrderId, 5000, '使馆签证费上调，需补交差额');
  return userOrderId;
}
