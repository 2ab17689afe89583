// Issue 11's journey in one piece, with an operator browser context and a
// customer browser context (the test's own operator and customer). A two-applicant order of the customer for a
// product with 拒签退全款 and mailed paper materials is paid through the real
// payment path (the sandbox's pay page and its signed notification), its
// passports are mailed in and it is submitted at the embassy
// (results-support.ts: the earlier steps have journeys of their own). Then,
// in the browsers: the operator issues one visa with an e-visa PNG uploaded on
// the workbench's results panel and refuses the other; the refusal creates
// that applicant's refund, which the refund worker gives to the sandbox and
// the sandbox's signed asynchronous refund notification settles (已退款). The
// customer downloads the e-visa (the same bytes), e-mails the visa infos (the
// message with the e-visa attached reaches the test SMTP server), and opens
// the visa-reject-reason dialog: the reason and the refund with its amount,
// 退款中 then 已退款. The operator ships the passports back on the ship-back
// panel, the sandbox courier delivers (揽收 … 签收, COURIER_SANDBOX_STEP_MS
// apart), the customer follows the parcel in the detail and finds the order
// under 已完成 with the issued visa's dates. Screenshots under
// screenshots/issue11/ (chain-*.png).
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { formatPrice } from '../../common/format';
import { FIXTURES } from '../fixtures/index';
import { orderAtEmbassy, RETURN_SNAPSHOT } from './results-support';
import { e2eDatabase, loggedInTest, mailbox, snap, animationsSettled, staffPage } from './support';

loggedInTest(
  'paid two-applicant order at the embassy → one visa issued (e-visa), one refused and refunded → passports shipped back and delivered → 已完成',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(300_000);
    const { userOrderId, applicants, paid } = await orderAtEmbassy(baseURL!, { customer, operator }, ['许清和', '许知远'], {
      rejectRefund: true,
      paidInSandbox: true,
    });
    const [issued, refused] = applicants as [{ applicant_id: number; name: string }, { applicant_id: number; name: string }];
    const db = e2eDatabase();
    const order = db
      .prepare('select reject_refund, unit_price, insurance_amount, discount_amount from user_order where user_order_id = ?')
      .get(userOrderId) as {
      reject_refund: number;
      unit_price: number;
      insurance_amount: number;
      discount_amount: number;
    };
    db.close();
    expect(order.reject_refund).toBe(1);
    expect(paid).toBeGreaterThan(0);
    // No insurance and no discount on this order: the refused applicant's share is the unit price (docs/order-rules.md "Refunds").
    expect([order.insurance_amount, order.discount_amount]).toEqual([0, 0]);
    const share = order.unit_price;

    // ── The operator: the results panel. 录入出签 with an e-visa PNG, 录入拒签 with a reason.
    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${userOrderId}`);
    const results = staff.getByTestId('result-panel');
    const row = (name: string) => results.getByTestId('result-applicant').filter({ hasText: name });
    await expect(row(issued.name).getByTestId('result-status')).toHaveText('办理中');
    await row(issued.name).getByTestId('result-issue-open').click();
    const issueDialog = staff.getByRole('dialog', { name: `录入出签 · ${issued.name}` });
    await expect(issueDialog).toBeVisible();
    await animationsSettled(staff);
    await issueDialog.getByLabel('签证号码').fill('E2026C7788');
    // antd's date picker (zh-CN): the date typed as the API takes it, Enter picks it.
    await issueDialog.getByLabel('有效期起').fill('2027-02-01');
    await issueDialog.getByLabel('有效期起').press('Enter');
    await issueDialog.getByLabel('有效期止').fill('2027-04-30');
    await issueDialog.getByLabel('有效期止').press('Enter');
    await issueDialog.getByText('单次', { exact: true }).click();
    await issueDialog.getByLabel('停留天数').fill('15');
    await issueDialog.locator('input[type=file]').setInputFiles({ name: '电子签证-许清和.png', mimeType: 'image/png', buffer: readFileSync(FIXTURES.png) });
    await expect(issueDialog.getByTestId('result-file-name')).toContainText('电子签证-许清和.png');
    await issueDialog.getByRole('button', { name: '确认录入' }).click();
    await expect(issueDialog).toBeHidden();
    await expect(row(issued.name).getByTestId('result-status')).toHaveText('已出签');

    await row(refused.name).getByTestId('result-reject-open').click();
    const rejectDialog = staff.getByRole('dialog', { name: `录入拒签 · ${refused.name}` });
    await expect(rejectDialog).toBeVisible();
    await animationsSettled(staff);
    await rejectDialog.getByText('资金证明不足').click();
    await rejectDialog.getByLabel('说明', { exact: true }).fill('存款证明金额不足，建议补充资产证明后重新申请');
    await rejectDialog.getByRole('button', { name: '确认录入' }).click();
    await expect(rejectDialog).toBeHidden();
    await expect(row(refused.name).getByTestId('result-status')).toHaveText('已拒签');

    // The refusal made the applicant's refund (拒签退全款): the refund panel lists it, for the unit price.
    await staff.reload();
    const refundPanel = staff.getByTestId('workbench-refund');
    await expect(refundPanel.getByTestId('refund-row')).toHaveCount(1);
    await expect(refundPanel.getByTestId('refund-row')).toContainText(formatPrice(share));
    await expect(refundPanel.getByTestId('refund-row')).toContainText(refused.name);

    // ── The customer: the visa infos.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/order/order-detail/${userOrderId}`);
    const section = page.getByTestId('order-visa-infos');
    const info = (name: string) => section.getByTestId('visa-info').filter({ hasText: name });
    await expect(info(issued.name).getByTestId('visa-no')).toHaveText('E2026C7788');
    await expect(info(issued.name).getByTestId('visa-validity')).toHaveText('2027-02-01 至 2027-04-30');
    await expect(info(issued.name)).toContainText('单次');
    await expect(info(issued.name)).toContainText('15 天');
    await expect(info(refused.name).getByTestId('visa-status')).toHaveText('已拒签');
    await section.scrollIntoViewIfNeeded();
    await snap(page, 'issue11/chain-visa-infos-1280');
    expect(await section.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

    // The e-visa, byte for byte.
    const link = info(issued.name).getByTestId('visa-evisa-download');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('电子签证-许清和.png');
    expect(readFileSync((await download.path())!).equals(readFileSync(FIXTURES.png))).toBe(true);

    // 发送到邮箱: the visa details with the e-visa attached, in the test SMTP server.
    await section.getByTestId('visa-email-open').click();
    const emailDialog = page.getByRole('dialog', { name: '发送签证信息到邮箱' });
    const address = `chain-${userOrderId}@example.com`;
    await emailDialog.getByRole('textbox', { name: '邮箱' }).fill(address);
    await emailDialog.getByTestId('visa-email-send').click();
    await expect(page.getByText('发送成功')).toBeVisible();
    await expect(emailDialog).toBeHidden({ timeout: 3_000 });
    await expect.poll(() => mailbox().filter((m) => m.to === address).length, { timeout: 15_000 }).toBe(1);
    const message = mailbox().find((m) => m.to === address)!;
    expect(message.raw).toMatch(/Content-Disposition: attachment/);
    expect(message.raw).toMatch(/Content-Type: image\/png/);
    // The attachment is the e-visa itself (base64 in the MIME part).
    const pngBase64 = readFileSync(FIXTURES.png).toString('base64');
    expect(message.raw.replace(/\r?\n/g, '')).toContain(pngBase64.slice(0, 200));
    expect(message.raw).toContain('E2026C7788');

    // The visa-reject-reason dialog: the reason and the refund with its amount.
    const openReason = async () => {
      await info(refused.name).getByTestId('visa-reject-reason-open').click();
      const dialog = page.getByRole('dialog', { name: '拒签原因' });
      await expect(dialog).toBeVisible();
      return dialog;
    };
    let reasonDialog = await openReason();
    await expect(reasonDialog.getByTestId('visa-reject-reason')).toContainText('资金证明不足');
    await expect(reasonDialog.getByTestId('visa-reject-reason')).toContainText('存款证明金额不足');
    await expect(reasonDialog.getByTestId('visa-reject-money')).toContainText(formatPrice(share));
    await expect(reasonDialog.getByTestId('visa-reject-refund-status')).toHaveText(/退款中|已退款/);
    await reasonDialog.getByRole('button', { name: '我知道了' }).click();
    await expect(reasonDialog).toBeHidden();

    // The refund worker gives it to the sandbox; the sandbox's signed refund notification settles it: 已退款.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('order-refund-status').allInnerTexts();
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toEqual(['已退款']);
    await expect(page.getByTestId('order-refunded-total')).toHaveText(formatPrice(share));
    reasonDialog = await openReason();
    await expect(reasonDialog.getByTestId('visa-reject-refund-status')).toHaveText('已退款');
    await expect(reasonDialog.getByTestId('visa-reject-money')).toContainText(formatPrice(share));
    await expect(reasonDialog.getByTestId('visa-reject-money')).toContainText('已退回原支付账户');
    await expect(reasonDialog).toContainText('重新申请');
    await snap(page, 'issue11/chain-reject-reason-refunded-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(reasonDialog).toBeVisible();
    expect(await reasonDialog.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await snap(page, 'issue11/chain-reject-reason-refunded-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await reasonDialog.getByRole('button', { name: '我知道了' }).click();
    await expect(reasonDialog).toBeHidden();

    // ── The operator ships the passports back (the sandbox courier books an SF pickup).
    await staff.reload();
    const shipBack = staff.getByTestId('ship-back-panel');
    await expect(shipBack.getByTestId('ship-back-results')).toContainText(issued.name);
    await expect(shipBack.getByTestId('ship-back-results')).toContainText(refused.name);
    await expect(shipBack.getByTestId('ship-back-address')).toContainText(RETURN_SNAPSHOT.detail);
    await shipBack.getByTestId('ship-back-open').click();
    await staff.getByTestId('ship-back-confirm').click();
    await expect(staff.getByText(/已预约快递上门取件，运单号 SF\d{13}/)).toBeVisible();
    await expect(staff.getByTestId('workbench-step')).toHaveText('护照寄回中');

    // ── The customer follows the parcel until it is delivered; the order is then 已完成.
    await page.goto(`/order/order-detail/${userOrderId}`);
    const parcel = page.getByTestId('detail-return-parcel');
    await expect(parcel.getByTestId('shipment-waybill')).toHaveText(/^SF\d{13}$/);
    await expect(async () => {
      await parcel
        .getByTestId('return-refresh')
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      await expect(parcel.getByTestId('shipment-status')).toHaveText('已签收', { timeout: 2_000 });
    }).toPass({ timeout: 90_000, intervals: [2_000] });
    await expect(parcel.getByTestId('shipment-routes')).toContainText('已签收');
    await page.reload();
    await expect(page.getByTestId('order-detail-page').getByTestId('order-status').first()).toHaveAttribute('data-status', 'completed');
    // The refund stays 已退款 on the completed order.
    await expect(page.getByTestId('order-refund-status')).toHaveText('已退款');

    // Under 已完成: each applicant's result and the issued visa's dates.
    await page.goto('/order/order-list?tab=completed');
    const card = page.locator(`[data-testid="order-card"][data-order-id="${userOrderId}"]`);
    await expect(card).toContainText('已完成');
    await expect(card.getByTestId('order-applicant').filter({ hasText: issued.name })).toContainText('已出签');
    await expect(card.getByTestId('order-applicant-visa-dates')).toHaveText('签证有效期 2027-02-01 – 2027-04-30');
    await expect(card.getByTestId('order-applicant').filter({ hasText: refused.name })).toContainText('已拒签');
    await card.scrollIntoViewIfNeeded();
    await snap(page, 'issue11/chain-order-list-completed-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    // The applicant's name and result stay on one line each (the dates wrap below them), not one character per line.
    const chip = card.getByTestId('order-applicant').filter({ hasText: issued.name });
    for (const part of [chip.locator('.order-applicant-name'), chip.locator('.order-applicant-status')]) {
      expect(await part.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(28);
    }
    await snap(page, 'issue11/chain-order-list-completed-390');

    // The operator's workbench agrees.
    await staff.reload();
    await expect(staff.getByTestId('workbench-step')).toHaveText('已完成');
    await staff.context().close();

    // ── After the retention period the scans are deleted, and the detail says so instead of a bare 0份.
    // Written as the retention job writes it (its rows deleted, a retention_purge event), for this
    // order only: running the job here would purge the other specs' finished orders in the shared
    // e2e database. The job itself is tested in server/modules/retention/retention.test.ts.
    const purgedAt = Date.parse('2027-02-03T02:00:00Z');
    const purge = e2eDatabase();
    purge.prepare('delete from order_material_file where user_order_id = ?').run(userOrderId);
    purge
      .prepare(
        `insert into order_event (user_order_id, actor, actor_id, event, from_status, to_status, from_step, to_step, detail, created_at)
       values (?, 'system', null, 'retention_purge', 'completed', 'completed', null, null, '{"material":2}', ?)`,
      )
      .run(userOrderId, purgedAt);
    purge.close();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/order/order-detail/${userOrderId}`);
    const files = page.getByTestId('order-applicant-files');
    await expect(files).toHaveCount(2);
    await expect(files).toHaveText(['0份（扫描件已于 2027-02-03 保留期满删除）', '0份（扫描件已于 2027-02-03 保留期满删除）']);
    await page.getByTestId('order-applicants-section').scrollIntoViewIfNeeded();
    await snap(page, 'issue11/chain-scans-purged-1280');
  },
);
