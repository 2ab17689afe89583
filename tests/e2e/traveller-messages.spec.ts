// A company's travel desk as a team, and travellers who hear from us
// themselves (issue 29): the enterprise's 经办人 (a colleague of the test's
// administrator) orders for two travellers, each with their own mobile and
// e-mail; the order goes through the page check to the interview notices
// (order-factories.ts, through the app's own calls, as the 经办人); each
// traveller's own e-mails arrive at the test SMTP server and their SMS in the
// SMS sandbox's folder — or, when the run falls in the quiet hours (22:00–08:00
// China time), the operator's list shows them held until 08:00. The operator
// reads every message in the workbench's 申请人短信与邮件. The enterprise's 财务
// exports the order to a workbook (one row per traveller) and requests its
// invoice, and may not place an order.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import ExcelJS from 'exceljs';
import { creditCodeCheckChar } from '../../common/invoice';
import { inQuietHours } from '../../server/modules/order-notices/traveller-messages';
import { orderAt } from './order-factories';
import { apiCall, loggedInColleague, loggedInTest, mailbox, mailSubject, mailText, openWorkbenchFold, snap, staffPage } from './support';

interface SandboxSms {
  to: string;
  template: string;
  text: string;
}

function smsSent(): SandboxSms[] {
  const dir = process.env.E2E_SMS_OUTBOX_DIR!;
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return []; // nothing sent yet: the folder is made with the first message
  }
  return names.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as SandboxSms);
}

loggedInTest(
  'a 经办人 orders for two travellers, each gets their own SMS and e-mails, the operator sees them, 财务 exports and asks for the invoice',
  async ({ browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(180_000);
    const stamp = String(Date.now()).slice(-8);
    const travellers = [
      { name: '韩知行', identity_id: 0, mobile_phone: `137${stamp}`, email: `han.${stamp}@example.com` },
      { name: '韩知远', identity_id: 0, mobile_phone: `138${stamp}`, email: `yuan.${stamp}@example.com` },
    ];
    const quiet = inQuietHours(Date.now());
    const agent = await loggedInColleague(baseURL!, customer, 'agent');
    const { userOrderId, product } = await orderAt({ baseURL: baseURL!, customer: agent, operator }, 'interview', { applicants: travellers });

    for (const traveller of travellers) {
      // E-mail is not held at night: both messages arrive, addressed to the traveller by name.
      await expect
        .poll(
          () =>
            mailbox()
              .filter((m) => m.to === traveller.email)
              .map((m) => mailSubject(m.raw))
              .sort(),
          { timeout: 30_000 },
        )
        .toEqual(['【易签通】签证申请表核对页待确认', '【易签通】面试/录指纹预约通知'].sort());
      const appointment = mailbox().find((m) => m.to === traveller.email && mailSubject(m.raw) === '【易签通】面试/录指纹预约通知')!;
      expect(mailText(appointment.raw)).toContain(`${traveller.name}您好，您的签证面试/录指纹预约在`);
      if (!quiet) {
        await expect
          .poll(
            () =>
              smsSent()
                .filter((sms) => sms.to === traveller.mobile_phone)
                .map((sms) => sms.template)
                .sort(),
            { timeout: 30_000 },
          )
          .toEqual(['appointment', 'page_check']);
        const sms = smsSent().find((m) => m.to === traveller.mobile_phone && m.template === 'appointment')!;
        expect(sms.text).toContain(`${traveller.name}您好`);
        expect(sms.text).toContain('请携带');
      }
    }
    // Nobody else got them: one traveller's messages never go to the other's number or address.
    expect(
      smsSent()
        .filter((sms) => sms.text.includes(travellers[0]!.name))
        .every((sms) => sms.to === travellers[0]!.mobile_phone),
    ).toBe(true);

    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${userOrderId}`);
    await openWorkbenchFold(staff, 'traveller-messages');
    const rows = staff.getByTestId('traveller-message');
    await expect(rows).toHaveCount(8);
    for (const traveller of travellers) {
      await expect(rows.filter({ hasText: traveller.email })).toHaveCount(2);
      const texts = rows.filter({ hasText: traveller.mobile_phone });
      await expect(texts).toHaveCount(2);
      if (quiet) await expect(texts.first()).toContainText('08:00 后发送');
      else await expect(texts.filter({ hasText: '已发送' })).toHaveCount(2);
    }
    await staff.getByTestId('traveller-messages').scrollIntoViewIfNeeded();
    await snap(staff, 'issue29/workbench-traveller-messages');
    await staff.context().close();

    // The enterprise's 财务: the workbook of the order (a row per traveller), then its invoice; no orders of their own.
    const finance = await loggedInColleague(baseURL!, customer, 'finance');
    const download = await fetch(`${baseURL}/files/export/orders.xlsx?ids=${userOrderId}`, { headers: { 'x-token': finance.token } });
    expect(download.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download.arrayBuffer()) as never);
    const sheet = book.worksheets[0]!;
    const cells = JSON.stringify(sheet.getRows(2, sheet.rowCount - 1)!.map((row) => row.values));
    for (const traveller of travellers) expect(cells).toContain(traveller.name);
    const invoice = await apiCall<{ status: string; amount: number }>(
      baseURL!,
      '/www/invoice/invoice_request',
      {
        title: customer.enterpriseName,
        tax_id: `91310115MA1K4ABC2${creditCodeCheckChar('91310115MA1K4ABC2')}`,
        address_phone: '',
        bank_account: '',
        email: `finance.${stamp}@example.com`,
        orders: [{ user_order_id: userOrderId }],
      },
      finance.token,
    );
    expect(invoice.status).toBe('requested');
    expect(invoice.amount).toBeGreaterThan(0);
    const placing = { visa_product_id: product.visa_product_id, departure_date: '2030-01-01', applicants: [travellers[0]] };
    await expect(apiCall(baseURL!, '/www/order/order_create', placing, finance.token)).rejects.toThrow(/2501/);
  },
);
