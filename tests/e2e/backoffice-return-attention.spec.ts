// 物流异常 on the workbench (issue 25, decision 0039): passports shipped back
// with the sandbox courier, whose pushes then stop (its ledger holds the
// next push back, as a courier that went quiet) while the parcel was booked
// six days ago; the ship-back panel shows the parcel under 物流异常 with
// 登记已签收 / 登记已退回 (offered by allowed_events), the queue's 物流异常
// filter lists the order, and the operator records the delivery with a note:
// the order is 已完成. Screenshots under screenshots/issue25/.
import { expect } from '@playwright/test';
import { orderWithResults } from './results-support';
import { e2eDatabase, loggedInTest, snap, staffPage } from './support';

loggedInTest(
  'a return parcel gone quiet: 物流异常 in the ship-back panel and the queue, 登记已签收 with a note completes the order',
  async ({ browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(120_000);
    const id = await orderWithResults(baseURL!, { customer, operator }, '周异常', ['issued']);
    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${id}`);
    const panel = staff.getByTestId('ship-back-panel');
    await panel.getByTestId('ship-back-open').click();
    await staff.getByTestId('ship-back-confirm').click();
    await expect(staff.getByTestId('workbench-step')).toHaveText('护照寄回中');

    // The courier goes quiet before its first scan, and the booking is six days old.
    const db = e2eDatabase();
    try {
      const shipment = db.prepare("select shipment_id, shipment_no from shipment where user_order_id = ? and direction = 'to_customer'").get(id) as {
        shipment_id: number;
        shipment_no: string;
      };
      db.prepare('update courier_sandbox_waybill set next_push_at = null where order_id = ?').run(shipment.shipment_no);
      db.prepare('update shipment set created_at = created_at - ? where shipment_id = ?').run(6 * 86_400_000, shipment.shipment_id);
    } finally {
      db.close();
    }

    await staff.reload();
    const attention = panel.getByTestId('return-attention-item');
    await expect(attention).toContainText('物流异常：超过时限仍未签收');
    await expect(attention.getByTestId('return-record-delivered')).toBeVisible();
    await expect(attention.getByTestId('return-record-returned')).toBeVisible();
    await panel.scrollIntoViewIfNeeded();
    await snap(staff, 'issue25/workbench-return-attention');

    // The queue's 物流异常 filter lists it, tagged.
    const queue = await staff.context().newPage();
    await queue.goto('/admin/orders?courier=attention');
    const row = queue.locator('tr', { has: queue.getByRole('link', { name: new RegExp(`^YD\\d{8}0*${id}$`) }) });
    await expect(row.getByTestId('queue-courier-attention')).toHaveText('物流异常');
    await snap(queue, 'issue25/queue-courier-attention');
    await queue.close();

    await attention.getByTestId('return-record-delivered').click();
    const dialog = staff.getByRole('dialog').filter({ hasText: '登记快件已签收' });
    await expect(dialog.getByTestId('return-record-confirm')).toBeDisabled();
    await dialog.getByTestId('return-record-note').fill('已电话联系客户，确认护照已收到');
    await snap(staff, 'issue25/workbench-return-record-dialog');
    await dialog.getByTestId('return-record-confirm').click();
    await expect(staff.getByText('已登记签收，订单已完成')).toBeVisible();
    await expect(staff.getByTestId('return-attention')).toHaveCount(0);
    await expect(panel.getByTestId('shipment-routes')).toContainText('易签通登记已签收：已电话联系客户，确认护照已收到');
  },
);
