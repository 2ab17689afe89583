// Travellers hear from us themselves (issue 29): an order for two travellers,
// each with their own mobile and e-mail, goes through the page check to the
// interview notices (order-factories.ts, through the app's own calls); each
// traveller's own e-mails arrive at the test SMTP server and their SMS in the
// SMS sandbox's folder — or, when the run falls in the quiet hours (22:00–08:00
// China time), the operator's list shows them held until 08:00. The operator
// reads every message in the workbench's 申请人短信与邮件.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { inQuietHours } from '../../server/modules/order-notices/traveller-messages';
import { orderAt } from './order-factories';
import { loggedInTest, mailbox, mailSubject, mailText, openWorkbenchFold, snap, staffPage } from './support';

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
  'each traveller gets their own page-check and appointment messages by SMS and e-mail; the operator sees them',
  async ({ browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(180_000);
    const stamp = String(Date.now()).slice(-8);
    const travellers = [
      { name: '韩知行', identity_id: 0, mobile_phone: `137${stamp}`, email: `han.${stamp}@example.com` },
      { name: '韩知远', identity_id: 0, mobile_phone: `138${stamp}`, email: `yuan.${stamp}@example.com` },
    ];
    const quiet = inQuietHours(Date.now());
    const { userOrderId } = await orderAt({ baseURL: baseURL!, customer, operator }, 'interview', { applicants: travellers });

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
  },
);
