// Visa results end to end with two browser contexts (issue 11), the test's
// own operator and customer. A two-applicant order of the customer starts at
// the embassy: it is put in processing · page_check (page-check-support.ts;
// the earlier stages have their own journeys) and submitted through the
// lifecycle's `submit` event as the operator (results-support.ts). On the workbench's results panel the operator
// issues the first applicant's visa with an e-visa PDF upload and refuses the
// second with a common reason and a note. The customer sees the visa infos
// on the order detail, downloads the e-visa (and nobody else can), e-mails the
// visa infos (the message with its attachment reaches the test SMTP server),
// opens the visa-reject-reason dialog, and finds the visa dates on the order
// list card. Screenshots under screenshots/issue11/.
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { FIXTURES } from '../fixtures/index';
import { orderInPageCheck } from './page-check-support';
import { submitAtEmbassy } from './results-support';
import { animationsSettled, loggedInTest, mailbox, NO_SESSION, staffPage } from './support';

const SHOTS = 'screenshots/issue11';

loggedInTest(
  'operator issues one visa (e-visa upload) and refuses the other → customer sees visa infos, downloads, e-mails, reads the reason; list card shows the dates',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(180_000);
    const { userOrderId, applicants } = await orderInPageCheck(baseURL!, { customer, operator });
    const [first, second] = applicants as [{ applicant_id: number; name: string }, { applicant_id: number; name: string }];
    await submitAtEmbassy(userOrderId, operator.principal);

    // ── The operator: the results panel of the workbench.
    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${userOrderId}`);
    const panel = staff.getByTestId('result-panel');
    await expect(panel).toBeVisible();
    const row = (name: string) => panel.getByTestId('result-applicant').filter({ hasText: name });
    await expect(row(first.name).getByTestId('result-status')).toHaveText('办理中');
    await panel.screenshot({ path: `${SHOTS}/operator-results-panel-before.png` });

    // 录入出签 with the e-visa: a text file named .png is refused by content first.
    await row(first.name).getByTestId('result-issue-open').click();
    const issueDialog = staff.getByRole('dialog', { name: `录入出签 · ${first.name}` });
    await expect(issueDialog).toBeVisible();
    await animationsSettled(staff);
    await issueDialog.getByLabel('签证号码').fill('E2026A1234');
    // antd's date picker (zh-CN): the date typed as the API takes it, Enter picks it.
    await issueDialog.getByLabel('有效期起').fill('2027-01-05');
    await issueDialog.getByLabel('有效期起').press('Enter');
    await issueDialog.getByLabel('有效期止').fill('2027-07-04');
    await issueDialog.getByLabel('有效期止').press('Enter');
    await issueDialog.getByText('多次', { exact: true }).click();
    await issueDialog.getByLabel('停留天数').fill('30');
    await issueDialog.locator('input[type=file]').setInputFiles(FIXTURES.renamedText);
    await expect(staff.getByText('仅支持 JPG、PNG 图片或 PDF 文件').first()).toBeVisible();
    await expect(issueDialog.getByTestId('result-file-name')).toHaveCount(0);
    await issueDialog.locator('input[type=file]').setInputFiles({ name: '电子签证.pdf', mimeType: 'application/pdf', buffer: readFileSync(FIXTURES.pdf) });
    await expect(issueDialog.getByTestId('result-file-name')).toContainText('电子签证.pdf');
    await staff.screenshot({ path: `${SHOTS}/operator-issue-dialog.png` });
    await issueDialog.getByRole('button', { name: '确认录入' }).click();
    await expect(issueDialog).toBeHidden();
    await expect(row(first.name).getByTestId('result-status')).toHaveText('已出签');
    await expect(row(first.name).getByTestId('result-summary')).toContainText('E2026A1234');

    // 录入拒签: a common reason and a note.
    await row(second.name).getByTestId('result-reject-open').click();
    const rejectDialog = staff.getByRole('dialog', { name: `录入拒签 · ${second.name}` });
    await expect(rejectDialog).toBeVisible();
    await animationsSettled(staff);
    await rejectDialog.getByText('资金证明不足').click();
    await rejectDialog.getByLabel('说明', { exact: true }).fill('银行流水时间不足六个月，建议补充后重新申请');
    await rejectDialog.getByRole('button', { name: '确认录入' }).click();
    await expect(rejectDialog).toBeHidden();
    await expect(row(second.name).getByTestId('result-status')).toHaveText('已拒签');
    // Read-only now: no more buttons.
    await expect(panel.getByTestId('result-issue-open')).toHaveCount(0);
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${SHOTS}/operator-results-panel.png` });
    await staff.context().close();

    // ── The customer: the order detail's visa infos.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/order/order-detail/${userOrderId}`);
    const section = page.getByTestId('order-visa-infos');
    await expect(section).toBeVisible();
    const info = (name: string) => section.getByTestId('visa-info').filter({ hasText: name });
    await expect(info(first.name).getByTestId('visa-no')).toHaveText('E2026A1234');
    await expect(info(first.name).getByTestId('visa-validity')).toHaveText('2027-01-05 至 2027-07-04');
    await expect(info(first.name)).toContainText('多次');
    await expect(info(first.name)).toContainText('30 天');
    await expect(info(second.name).getByTestId('visa-status')).toHaveText('已拒签');
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `${SHOTS}/visa-infos.png` });
    // On a phone: nothing overflows the section.
    await page.setViewportSize({ width: 390, height: 844 });
    await section.scrollIntoViewIfNeeded();
    expect(await section.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await section.screenshot({ path: `${SHOTS}/visa-infos-390.png` });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The e-visa downloads for the owner, byte for byte; without the session it is not there.
    const link = info(first.name).getByTestId('visa-evisa-download');
    const href = (await link.getAttribute('href'))!;
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('电子签证.pdf');
    expect(readFileSync((await download.path())!).equals(readFileSync(FIXTURES.pdf))).toBe(true);
    const stranger = await browser.newContext({ storageState: NO_SESSION });
    expect((await stranger.request.get(`${baseURL}${href}`)).status()).toBe(404);
    await stranger.close();

    // 发送到邮箱: a wrong address is refused in the dialog; a good one gets the mail with the e-visa attached.
    await section.getByTestId('visa-email-open').click();
    const emailDialog = page.getByRole('dialog', { name: '发送签证信息到邮箱' });
    await emailDialog.getByRole('textbox', { name: '邮箱' }).fill('wang.min@');
    await emailDialog.getByTestId('visa-email-send').click();
    await expect(page.getByText('请输入正确的邮箱').first()).toBeVisible();
    const address = `visa-${userOrderId}@example.com`;
    await emailDialog.getByRole('textbox', { name: '邮箱' }).fill(address);
    await emailDialog.getByTestId('visa-email-send').click();
    await expect(page.getByText('发送成功')).toBeVisible();
    await expect(emailDialog).toBeHidden({ timeout: 3_000 });
    await expect.poll(() => mailbox().filter((m) => m.to === address).length, { timeout: 15_000 }).toBe(1);
    const message = mailbox().find((m) => m.to === address)!;
    expect(message.raw).toMatch(/Content-Disposition: attachment/);
    expect(message.raw).toMatch(/Content-Type: application\/pdf/);

    // The visa-reject-reason dialog of the refused applicant.
    await info(second.name).getByTestId('visa-reject-reason-open').click();
    const reasonDialog = page.getByRole('dialog', { name: '拒签原因' });
    await expect(reasonDialog.getByTestId('visa-reject-reason')).toContainText('资金证明不足');
    await expect(reasonDialog.getByTestId('visa-reject-reason')).toContainText('银行流水时间不足六个月');
    await expect(reasonDialog.getByTestId('visa-reject-money')).toBeVisible();
    await expect(reasonDialog).toContainText('重新申请');
    await page.screenshot({ path: `${SHOTS}/visa-reject-reason-dialog.png` });
    await reasonDialog.getByRole('button', { name: '我知道了' }).click();
    await expect(reasonDialog).toBeHidden();

    // The order list card: each applicant's result and the issued visa's dates.
    await page.goto('/order/order-list');
    const card = page.locator(`[data-testid="order-card"][data-order-id="${userOrderId}"]`);
    await expect(card.getByTestId('order-applicant').filter({ hasText: first.name })).toContainText('已出签');
    await expect(card.getByTestId('order-applicant-visa-dates')).toHaveText('签证有效期 2027-01-05 – 2027-07-04');
    await expect(card.getByTestId('order-applicant').filter({ hasText: second.name })).toContainText('已拒签');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `${SHOTS}/order-list-card.png` });
  },
);
