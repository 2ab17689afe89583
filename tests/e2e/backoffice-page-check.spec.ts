// The page check (核页) end to end with two browser contexts (the test's own
// operator and customer). The order starts
// in processing · page_check (tests/e2e/page-check-support.ts: the earlier
// stages have their own journeys). The operator uploads each applicant's
// pages on the workbench (a PDF and a JPEG, a PNG) and publishes them; the
// customer opens 确认核对页 from the order list, reads the pages (the PDF
// inline), asks for a correction on the PDF's second page; the operator sees
// it, replaces the PDF and republishes; the customer confirms both
// applicants → all confirmed; the operator submits with today's date → 已递交使馆.
// Screenshots of the customer page at 1280 and 390 px and of the workbench panel.
import { expect, type Page } from '@playwright/test';
import { FIXTURES } from '../fixtures/index';
import { orderInPageCheck } from './page-check-support';
import { e2eDatabase, hydrated, loggedInTest, snap, staffPage } from './support';

const panelApplicant = (staff: Page, name: string) => staff.getByTestId('page-check-panel-applicant').filter({ hasText: name });

loggedInTest(
  'operator uploads and publishes → customer asks a correction → operator republishes → customer confirms all → operator submits',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(180_000);
    const { userOrderId, applicants } = await orderInPageCheck(baseURL!, { customer, operator });
    const [first, second] = applicants as [{ applicant_id: number; name: string }, { applicant_id: number; name: string }];

    // The operator's workbench: upload per applicant, publish.
    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${userOrderId}`);
    // A file chosen before the page is hydrated reaches no handler (the machine is shared; hydration can lag).
    await hydrated(staff);
    const panel = staff.getByTestId('page-check-panel');
    await expect(panel).toBeVisible();
    await expect(panelApplicant(staff, first.name)).toContainText('未上传');
    // One after the other: the pages keep the order they were uploaded in.
    await panelApplicant(staff, first.name).locator('input[type=file]').setInputFiles(FIXTURES.pdf);
    await expect(panelApplicant(staff, first.name).getByTestId('page-check-panel-page')).toHaveCount(1);
    await panelApplicant(staff, first.name).locator('input[type=file]').setInputFiles(FIXTURES.jpeg);
    await expect(panelApplicant(staff, first.name).getByTestId('page-check-panel-page')).toHaveCount(2);
    await panelApplicant(staff, second.name).locator('input[type=file]').setInputFiles(FIXTURES.png);
    await expect(panelApplicant(staff, second.name).getByTestId('page-check-panel-page')).toHaveCount(1);
    // A text file with a .jpg name is refused by content.
    await panelApplicant(staff, second.name).locator('input[type=file]').setInputFiles(FIXTURES.renamedText);
    await expect(staff.getByText('仅支持 JPG、PNG 图片或 PDF 文件').first()).toBeVisible();
    await expect(panelApplicant(staff, second.name).getByTestId('page-check-panel-page')).toHaveCount(1);
    await panelApplicant(staff, first.name).getByTestId('page-check-publish').click();
    await expect(panelApplicant(staff, first.name)).toHaveAttribute('data-status', 'published');
    await panelApplicant(staff, second.name).getByTestId('page-check-publish').click();
    await expect(panelApplicant(staff, second.name)).toHaveAttribute('data-status', 'published');
    await panel.screenshot({ path: 'screenshots/backoffice/page-check-panel-published.png' });

    // The customer: the order list's 确认核对页 → the page check page.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/order/order-list');
    const card = page.locator(`[data-testid="order-card"][data-order-id="${userOrderId}"]`);
    await expect(card).toContainText('待确认核对页');
    await card.getByRole('button', { name: '确认核对页' }).click();
    await expect(page).toHaveURL(new RegExp(`/order/order-page-check/${userOrderId}$`));
    const sections = page.getByTestId('page-check-applicant');
    await expect(sections).toHaveCount(2);
    const firstSection = sections.filter({ hasText: first.name });
    await expect(firstSection.getByTestId('page-check-page')).toHaveCount(2);
    await expect(firstSection.locator('iframe')).toHaveAttribute('src', /\/files\/page-check\/\d+/);
    await expect(firstSection.locator('img.pc-image')).toBeVisible();
    await expect.poll(() => firstSection.locator('img.pc-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await snap(page, 'page-check/customer-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'page-check/customer-390');
    await page.screenshot({ path: 'screenshots/page-check/customer-390-full.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // A correction on the PDF's second page.
    await firstSection.getByTestId('page-check-ask-correction').click();
    const dialog = page.getByRole('dialog', { name: `申请修改：${first.name}` });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('PDF 第几页').fill('2');
    await dialog.getByLabel('意见 1 的内容').fill('护照号码少了最后一位，应为 E12345678');
    await snap(page, 'page-check/correction-dialog');
    await dialog.getByRole('button', { name: '提交修改意见' }).click();
    await expect(dialog).toBeHidden();
    await expect(firstSection).toHaveAttribute('data-status', 'correction');
    await expect(firstSection.getByTestId('page-check-comment')).toContainText('第 1 页（bank-statement.pdf），PDF 第 2 页');

    // The operator sees the comment, replaces the PDF and republishes.
    await staff.reload();
    const corrected = panelApplicant(staff, first.name);
    await expect(corrected).toHaveAttribute('data-status', 'correction');
    await expect(corrected.getByTestId('page-check-panel-comments')).toContainText('护照号码少了最后一位');
    await corrected.getByRole('button', { name: '删除 bank-statement.pdf' }).click();
    await staff.getByRole('button', { name: '删除', exact: true }).click();
    await expect(corrected.getByTestId('page-check-panel-page')).toHaveCount(1);
    await corrected.locator('input[type=file]').setInputFiles(FIXTURES.pdf);
    await expect(corrected.getByTestId('page-check-panel-page')).toHaveCount(2);
    await expect(corrected.getByTestId('page-check-publish')).toHaveText(/重新发布/);
    await corrected.getByTestId('page-check-publish').click();
    await expect(corrected).toHaveAttribute('data-status', 'published');
    await expect(corrected).toContainText('第 2 次发布');

    // The customer confirms both.
    await page.reload();
    for (const applicant of [first, second]) {
      const section = sections.filter({ hasText: applicant.name });
      await expect(section).toHaveAttribute('data-status', 'published');
      await section.getByTestId('page-check-confirm').click();
      await page.getByRole('dialog').getByRole('button', { name: '确认无误' }).click();
      await expect(section).toHaveAttribute('data-status', 'confirmed');
    }
    await expect(page.getByTestId('page-check-all-confirmed')).toContainText('核对页已全部确认');
    await snap(page, 'page-check/customer-confirmed');

    // The operator submits with today's date.
    await staff.reload();
    await expect(panel).toContainText('可以递交使馆');
    await staff.getByTestId('page-check-submit').click();
    await staff.getByRole('button', { name: '确认递交' }).click();
    await expect(staff.getByTestId('page-check-submitted')).toBeVisible();
    await expect(staff.getByTestId('workbench-step')).toHaveText('已递交使馆');
    await panel.screenshot({ path: 'screenshots/backoffice/page-check-panel-submitted.png' });

    // The customer's order detail: 已递交使馆, the page check section with the date.
    await page.goto(`/order/order-detail/${userOrderId}`);
    await expect(page.getByTestId('order-detail-page')).toContainText('已递交使馆');
    await expect(page.getByTestId('order-submitted-date')).toBeVisible();
    await snap(page, 'page-check/detail-submitted');

    const db = e2eDatabase();
    const events = db.prepare('select event from order_event where user_order_id = ? order by event_id').all(userOrderId) as Array<{ event: string }>;
    const notices = db.prepare('select kind from notice where user_order_id = ? order by notice_id').all(userOrderId) as Array<{ kind: string }>;
    db.close();
    expect(events.map((e) => e.event)).toEqual([
      'create',
      // The setup's (page-check-support.ts): confirmed, paid, taken, materials passed.
      'confirm',
      'pay',
      'assign',
      'material_review_passed',
      'page_check_publish',
      'page_check_publish',
      'page_check_correction',
      'page_check_publish',
      'page_check_confirm',
      'page_check_confirm',
      'page_check_done',
      'submit',
    ]);
    expect(notices.map((n) => n.kind)).toEqual(expect.arrayContaining(['page_check_publish', 'page_check_correction', 'page_check_done', 'submit']));
    await staff.context().close();
  },
);
