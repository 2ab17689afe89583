// 对账差异 end to end (issue 25, decision 0038): three orders paid through the
// sandbox, moved to yesterday (China); the sandbox's books then disagree with
// ours — one trade for another amount, one it has and we do not, one of ours
// it booked today instead — and yesterday's reconciliation is run with the
// server's own code on the e2e database (the job runs it after 10:00; here it
// is called at once). The supervisor sees the three differences on
// /admin/reconciliation, explains one with a note, and finds it under 全部
// with who and when. Screenshots under screenshots/reconciliation/.
import { expect, test } from '@playwright/test';
import { openDatabase } from '../../server/db/database';
import { previousChinaDay } from '../../server/modules/payment/bill';
import { sandboxBill } from '../../server/modules/payment/sandbox-bill';
import { directoryOf } from '../../server/modules/operator/directory';
import { createReconciliationService } from '../../server/modules/reconciliation/reconciliation.service';
import { paidOrder } from './results-support';
import { animationsSettled, asOperator, createOperator, e2eDatabase, loggedInCustomer, snap } from './support';

function outTradeNoOf(db: ReturnType<typeof e2eDatabase>, userOrderId: number): string {
  return (db.prepare(`select out_trade_no from payment where user_order_id = ? and status = 'paid'`).get(userOrderId) as { out_trade_no: string }).out_trade_no;
}

test('the day’s differences are listed, and a supervisor explains one with a note', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const customer = await loggedInCustomer(baseURL!);
  const supervisor = await createOperator({ role: 'supervisor', name: '赵对账' });
  const matching = await paidOrder(baseURL!, customer, [{ name: '钱一致', mobile_phone: '13600136081' }]);
  const otherAmount = await paidOrder(baseURL!, customer, [{ name: '孙金额', mobile_phone: '13600136082' }]);
  const bookedToday = await paidOrder(baseURL!, customer, [{ name: '李隔日', mobile_phone: '13600136083' }]);

  const yesterday = previousChinaDay(Date.now());
  const yesterdayAfternoon = Date.parse(`${yesterday}T15:00:00+08:00`);
  const db = e2eDatabase();
  const trades = [matching, otherAmount, bookedToday].map((order) => outTradeNoOf(db, order.userOrderId));
  for (const outTradeNo of trades) {
    db.prepare(`update payment set paid_at = ? where out_trade_no = ?`).run(yesterdayAfternoon, outTradeNo);
    db.prepare(`update payment_sandbox_trade set paid_at = ? where out_trade_no = ?`).run(yesterdayAfternoon, outTradeNo);
  }
  // The company's books: another amount, a trade booked today, and one we never heard of.
  db.prepare(`update payment_sandbox_trade set amount = amount - 100 where out_trade_no = ?`).run(trades[1]);
  db.prepare(`update payment_sandbox_trade set paid_at = ? where out_trade_no = ?`).run(Date.now(), trades[2]);
  const ghost = `YQ${yesterday.replaceAll('-', '')}150000GHOST${Date.now() % 100_000}`;
  db.prepare(
    `insert into payment_sandbox_trade (out_trade_no, channel, amount, description, state, provider_trade_no, notify_id, created_at, expires_at, paid_at, closed_at, notified_at)
     values (?, 'wechat', 12300, '易签通-未知订单', 'SUCCESS', ?, 'N-GHOST', ?, ?, ?, null, null)`,
  ).run(ghost, `4200${ghost.slice(2)}`, yesterdayAfternoon, yesterdayAfternoon + 900_000, yesterdayAfternoon + 60_000);
  db.close();

  // Yesterday's reconciliation, with the server's code on the e2e database.
  const handle = openDatabase({ kind: 'sqlite', file: process.env.E2E_DB_FILE! });
  try {
    const reconciliation = createReconciliationService(handle.db, {
      providers: () => [],
      now: () => Date.now(),
      log: { info: () => {}, warn: () => {}, error: () => {} },
      operators: directoryOf(async () => []),
    });
    const outcome = await reconciliation.runDay({ name: 'sandbox', downloadBill: (day) => sandboxBill(handle.db, day) }, yesterday);
    expect(outcome?.differences.map((d) => d.kind).sort()).toEqual(['amount', 'missing_ours', 'missing_theirs']);
  } finally {
    await handle.destroy();
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await asOperator(page, supervisor, baseURL!);
  await page.goto('/admin/reconciliation');
  await expect(page.getByRole('heading', { name: '对账差异' })).toBeVisible();
  const table = page.getByTestId('admin-reconciliation');
  await expect(table.getByText('金额不一致')).toBeVisible();
  await expect(table.getByText('我方无记录')).toBeVisible();
  await expect(table.getByText('账单无记录')).toBeVisible();
  await expect(table.getByText(ghost)).toBeVisible();
  await animationsSettled(page);
  await snap(page, 'reconciliation/open-differences');

  // Explain the amount difference.
  const row = page.locator('tr', { hasText: trades[1]! });
  await row.getByTestId('reconciliation-explain').click();
  await expect(page.getByRole('dialog', { name: '标记差异已说明' })).toBeVisible();
  await animationsSettled(page);
  await page.getByTestId('reconciliation-note').fill('服务商扣了 1 元手续费，已与财务核对');
  await snap(page, 'reconciliation/explain-dialog');
  await page.getByRole('button', { name: '确认说明' }).click();
  await expect(page.getByText('已标记为已说明')).toBeVisible();
  await expect(page.locator('tr', { hasText: trades[1]! })).toHaveCount(0);

  await page.getByText('全部', { exact: true }).click();
  await expect(page).toHaveURL(/status=all/);
  const explained = page.locator('tr', { hasText: trades[1]! });
  await expect(explained.getByText('服务商扣了 1 元手续费，已与财务核对')).toBeVisible();
  await expect(explained.getByText(/赵对账/)).toBeVisible();
  await animationsSettled(page);
  await snap(page, 'reconciliation/all-with-explanation');
});
