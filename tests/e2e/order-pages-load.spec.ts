// The five login-only order pages read their data in their route loaders
// (decision 0011): the page comes from the server with the order in it; a
// missing (or another enterprise's) order is a 404 saying 订单不存在; a read
// that fails is a 500 saying 加载失败, and 重新加载 re-runs the loaders and
// shows the page once the data can be read again.
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { addDays, chinaDate } from '../../common/order';
import { e2eDatabase, hydrated, loggedInTest, signedApiHeaders, snap } from './support';

/** A draft order with two applicants of a product that needs an interview, made through the API. */
async function interviewDraft(request: APIRequestContext, token: string): Promise<number> {
  const call = async <T>(path: string, payload: object, token?: string): Promise<T> => {
    const body = (await (await request.post(path, { data: payload, headers: signedApiHeaders(token) })).json()) as { ret: number; msg: string; body: T };
    if (body.ret !== 0) throw new Error(`${path}: ${body.ret} ${body.msg}`);
    return body.body;
  };
  const db = e2eDatabase();
  const product = db
    .prepare(
      'select visa_product_id as id from visa_product where status = 0 and channel = 0 and offline = 1 and need_interview = 1 and consular_district_id is not null order by visa_product_id limit 1',
    )
    .get() as { id: number };
  db.close();
  const applicants = [
    { name: '周文', identity_id: 0, mobile_phone: '13811112222' },
    { name: '周武', identity_id: 3, mobile_phone: '13811113333' },
  ];
  const created = await call<{ user_order_id: number }>(
    '/www/order/order_create',
    { visa_product_id: product.id, departure_date: addDays(chinaDate(Date.now()), 45), applicants },
    token,
  );
  return created.user_order_id;
}

/** Hides a table every order page reads, so the reads fail as with a broken database; always put back. */
function withoutApplicantTable(hidden: boolean) {
  const db = e2eDatabase();
  try {
    db.exec(hidden ? 'alter table order_applicant rename to order_applicant_hidden' : 'alter table order_applicant_hidden rename to order_applicant');
  } finally {
    db.close();
  }
}

const PAGES = [
  { name: 'order-list', path: () => '/order/order-list', ready: 'order-list-page' },
  { name: 'order-detail', path: (id: number) => `/order/order-detail/${id}`, ready: 'order-detail-page' },
  { name: 'upload', path: (id: number) => `/ordering/upload/${id}`, ready: 'upload-page' },
  { name: 'interview', path: (id: number) => `/ordering/choose-interview-time/${id}`, ready: 'interview-page' },
  { name: 'confirm', path: (id: number) => `/ordering/order-confirm/${id}`, ready: 'order-confirm-page' },
] as const;

async function open(page: Page, path: string) {
  const response = await page.goto(path);
  return response?.status();
}

loggedInTest(
  'each order page comes from the server with its data, says 订单不存在 for a missing order, and 加载失败 with a retry that loads',
  async ({ page, request, customer }) => {
    const id = await interviewDraft(request, customer.token);
    const db = e2eDatabase();
    const missing = (db.prepare('select max(user_order_id) as id from user_order').get() as { id: number }).id + 1000;
    db.close();
    await page.goto('/');

    for (const { name, path, ready } of PAGES) {
      // Loaded: the server's HTML already holds the order (no placeholder, no browser read).
      const html = await (await page.request.get(path(id))).text();
      expect(html, name).toContain(`data-testid="${ready}"`);
      expect(await open(page, path(id)), name).toBe(200);
      await expect(page.getByTestId(ready)).toBeVisible();
      if (name !== 'order-list') await expect(page.getByTestId(ready)).not.toContainText('加载失败');
      await snap(page, `load-${name}-ready`);

      if (name !== 'order-list') {
        expect(await open(page, path(missing)), name).toBe(404);
        await expect(page.getByTestId('order-missing')).toContainText('订单不存在');
        await snap(page, `load-${name}-missing`);
      }
    }

    for (const { name, path, ready } of PAGES) {
      withoutApplicantTable(true);
      try {
        expect(await open(page, path(id)), name).toBe(500);
        await expect(page.getByTestId('load-failed')).toContainText('加载失败');
        await expect(page.getByTestId('load-retry')).toBeVisible();
        await snap(page, `load-${name}-failed`);
      } finally {
        withoutApplicantTable(false);
      }
      // The retry re-runs the loaders in place.
      await hydrated(page);
      await page.getByTestId('load-retry').click();
      await expect(page.getByTestId(ready)).toBeVisible();
      await expect(page.getByTestId('load-failed')).toHaveCount(0);
    }
  },
);
