// A visitor e-mails themselves a product's checklist and it really arrives at
// the test SMTP server, for the identity they had selected.
import { expect, test } from '@playwright/test';
import { e2eDatabase, mailbox, mailSubject } from './support';

test('the checklist for the selected identity arrives by e-mail', async ({ page }) => {
  const db = e2eDatabase();
  const product = db
    .prepare(
      `select p.visa_product_id as id, c.name as country from visa_product p join visa_country c on c.visa_country_id = p.visa_country_id
       where p.status = 0 and p.channel = 0 order by p.visa_product_id limit 1`,
    )
    .get() as { id: number; country: string };
  db.close();
  const address = `traveller.${Date.now()}@example.com`;

  await page.goto(`/visa/product/${product.id}`);
  await page.getByRole('tab', { name: '退休人员' }).click();
  await page.getByText('发送此资料清单到邮箱').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill('not-an-address');
  await dialog.getByRole('button', { name: '立即发送' }).click();
  await expect(page.getByText('请输入正确的邮箱')).toBeVisible();

  await dialog.getByRole('textbox').fill(address);
  await dialog.getByRole('button', { name: '立即发送' }).click();
  await expect(page.getByText('发送成功')).toBeVisible();
  await expect(dialog).toBeHidden({ timeout: 3_000 });

  await expect.poll(() => mailbox().filter((m) => m.to === address).length, { timeout: 10_000 }).toBe(1);
  const message = mailbox().find((m) => m.to === address)!;
  const subject = mailSubject(message.raw);
  expect(subject).toContain(product.country);
  expect(subject).toContain('退休人员');

  // Opening the dialog again starts from an empty address.
  await page.getByText('发送此资料清单到邮箱').click();
  await expect(page.getByRole('dialog').getByRole('textbox')).toHaveValue('');
});
