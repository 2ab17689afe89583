// Reports and invoices end to end (issue 29), with the test's own customer and
// operator: two paid orders of the customer; on the order list the customer
// ticks both and exports the workbook (the download event; the file opened
// with exceljs: Chinese headers, one row per applicant, the order's amount as
// the detail shows it), puts them in a 出行团组, and requests an invoice with
// a valid unified social credit code. The operator finds the request in the
// back office's 发票 page and uploads the e-invoice PDF; the customer finds it
// 已开票 under 我的发票 and downloads the PDF. Screenshots at 1280 and 390 px
// under screenshots/issue29/.
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import ExcelJS from 'exceljs';
import { creditCodeCheckChar } from '../../common/invoice';
import { ORDER_EXPORT_COLUMNS } from '../../common/report';
import { paidOrder } from './results-support';
import { animationsSettled, loggedInTest, snap, staffPage } from './support';

const TAX_17 = '91310115MA1K4ABC2';
const TAX_ID = `${TAX_17}${creditCodeCheckChar(TAX_17)}`;

loggedInTest(
  'the customer exports the workbook and requests an invoice; the operator uploads the PDF; the customer downloads it',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(180_000);
    const first = await paidOrder(baseURL!, customer, [
      { name: '周报表', mobile_phone: '13600136291' },
      { name: '吴报表', mobile_phone: '13600136292' },
    ]);
    const second = await paidOrder(baseURL!, customer, [{ name: '郑发票', mobile_phone: '13600136293' }]);

    await page.goto('/order/order-list');
    const bar = page.getByTestId('order-report-bar');
    await expect(bar.getByTestId('export-selected-xlsx')).toBeDisabled();
    for (const id of [first.userOrderId, second.userOrderId]) {
      await page.locator(`[data-testid="order-card"][data-order-id="${id}"]`).getByTestId('order-select').check();
    }
    await expect(bar.getByTestId('order-selected-count')).toHaveText('2');
    await snap(page, 'issue29/order-list-bar-1280');

    // 导出 Excel: a real download, opened with exceljs.
    const downloading = page.waitForEvent('download');
    await bar.getByTestId('export-selected-xlsx').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^订单导出-\d{8}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...ORDER_EXPORT_COLUMNS]);
    expect(sheet.rowCount).toBe(4);
    const rows = [2, 3, 4].map((n) => (sheet.getRow(n).values as unknown[]).slice(1));
    const zhou = rows.find((row) => row[ORDER_EXPORT_COLUMNS.indexOf('申请人')] === '周报表')!;
    expect(zhou[ORDER_EXPORT_COLUMNS.indexOf('实付（元）')]).toBe(first.total / 100);
    expect(zhou[ORDER_EXPORT_COLUMNS.indexOf('订单状态')]).toBe('办理中');

    // 设为团组.
    await bar.getByTestId('order-group-set').click();
    const groupDialog = page.getByRole('dialog', { name: '设为出行团组' });
    await groupDialog.getByTestId('order-group-name').fill('春季欧洲考察团');
    await groupDialog.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('已设为团组“春季欧洲考察团”')).toBeVisible();
    await expect(page.locator(`[data-testid="order-card"][data-order-id="${first.userOrderId}"]`).getByTestId('order-group')).toHaveText('团组 春季欧洲考察团');

    // 申请发票 for both orders.
    await bar.getByTestId('invoice-request-open').click();
    const dialog = page.getByRole('dialog', { name: '申请发票' });
    await expect(dialog.getByTestId('invoice-request-total')).toContainText(`￥${(first.total + second.total) / 100}`);
    await dialog.getByTestId('invoice-title').fill('上海示例旅游有限公司');
    await dialog.getByTestId('invoice-tax-id').fill('91310115MA1K4ABC2X');
    await dialog.getByTestId('invoice-email').fill('finance@example.com');
    await dialog.getByTestId('invoice-request-submit').click();
    await expect(dialog.getByText('请输入正确的 18 位统一社会信用代码')).toBeVisible();
    await dialog.getByTestId('invoice-tax-id').fill(TAX_ID);
    await animationsSettled(page);
    await snap(page, 'issue29/invoice-request-1280');
    await dialog.getByTestId('invoice-request-submit').click();
    await expect(page.getByText('已提交发票申请，开具后会通知您')).toBeVisible();

    // The operator: 发票 → 上传发票并开具.
    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto('/admin/invoices');
    const row = staff.locator('tr', { hasText: '上海示例旅游有限公司' });
    await expect(row).toBeVisible();
    await snap(staff, 'issue29/admin-invoices-1280');
    await row.getByTestId('invoice-file-input').setInputFiles('tests/fixtures/bank-statement.pdf');
    await expect(staff.getByText('发票已开具，客户会收到通知')).toBeVisible();
    await staff.goto('/admin/invoices?filter=all');
    await expect(staff.locator('tr', { hasText: '上海示例旅游有限公司' }).getByTestId('invoice-row-status')).toHaveText('已开票');
    await staff.setViewportSize({ width: 390, height: 844 });
    await snap(staff, 'issue29/admin-invoices-390');
    await staff.context().close();

    // The customer: 我的发票 → 已开票, the PDF downloads.
    await page.goto('/user/invoice');
    const card = page.getByTestId('invoice-card').first();
    await expect(card.getByTestId('invoice-status')).toHaveText('已开票');
    await expect(card.getByTestId('invoice-amount')).toHaveText(`￥${(first.total + second.total) / 100}`);
    await snap(page, 'issue29/my-invoices-1280');
    const pdf = page.waitForEvent('download');
    await card.getByTestId('invoice-download').click();
    const file = await pdf;
    expect(
      readFileSync((await file.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'issue29/my-invoices-390');
    await page.goto('/order/order-list');
    await snap(page, 'issue29/order-list-bar-390');
  },
);
