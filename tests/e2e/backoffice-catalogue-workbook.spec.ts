// The catalogue workbook in the back office (issue 26): a supervisor downloads
// it from 产品管理, changes a product's price and a material's name (exceljs,
// as in Excel), uploads it and sees exactly those two changes in the preview;
// 确认导入 applies them and the guest product page shows the new price. A
// workbook with a negative price lists the row's error and changes nothing.
// Screenshots at 1280 px under screenshots/tmp/catalogue-workbook/.
import { expect, test } from '@playwright/test';
import { animationsSettled, createProduct, hydrated, loggedInTest, snap, staffPage } from './support';
import { downloadWorkbook, editWorkbook, uploadWorkbook } from './catalogue-workbook-support';

loggedInTest('a supervisor imports an edited workbook after its preview; a bad one changes nothing', async ({ page, browser, baseURL, supervisor }) => {
  test.setTimeout(180_000);
  const product = await createProduct({ price: 45_000 });
  const material = product.materials[0]!;
  const newName = `护照首页（新版${Date.now() % 10_000}）`;

  const staff = await staffPage(browser, supervisor, baseURL!, { viewport: { width: 1280, height: 900 } });
  await staff.goto('/admin/catalogue');
  await hydrated(staff);
  const original = await downloadWorkbook(staff);
  const edited = await editWorkbook(original, [
    { sheet: '产品', where: { header: '产品编号', value: product.visa_product_id }, header: '售价（元）', value: 612 },
    { sheet: '材料清单', where: { header: '材料编号（新材料留空）', value: material.material_id }, header: '材料名称', value: newName },
  ]);

  await uploadWorkbook(staff, edited);
  const dialog = staff.getByRole('dialog', { name: '导入工作簿：预览改动' });
  const changes = dialog.getByTestId('workbook-change');
  await expect(changes).toHaveCount(2);
  await expect(dialog.getByRole('region', { name: '工作表 产品' }).getByTestId('workbook-change')).toHaveText(
    new RegExp(`修改.*第 \\d+ 行.*${product.visa_product_id}.*售价（元）：[\\d.]+ → 612$`),
  );
  await expect(dialog.getByRole('region', { name: '工作表 材料清单' }).getByTestId('workbook-change')).toHaveText(
    new RegExp(`修改.*第 \\d+ 行.*材料名称：${material.name} → ${newName}$`),
  );
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue-workbook/01-preview');
  await dialog.getByRole('button', { name: '确认导入' }).click();
  await expect(staff.getByText('已导入工作簿')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The guest page shows the new price and the renamed material.
  await page.goto(`/visa/product/${product.visa_product_id}`);
  await expect(page.getByText('￥612').first()).toBeVisible();
  await expect(page.getByText(newName).first()).toBeVisible();

  // A negative price: the preview lists the row's error, 确认导入 stays off, nothing changes.
  const bad = await editWorkbook(await downloadWorkbook(staff), [
    { sheet: '产品', where: { header: '产品编号', value: product.visa_product_id }, header: '售价（元）', value: -5 },
  ]);
  await uploadWorkbook(staff, bad);
  await expect(dialog.getByText(/工作簿有 1 处错误/)).toBeVisible();
  const problem = dialog.locator('.cat-workbook-table tbody tr.ant-table-row');
  await expect(problem).toHaveCount(1);
  await expect(problem).toContainText('产品');
  await expect(problem).toContainText('售价（元）');
  await expect(dialog.getByRole('button', { name: '确认导入' })).toBeDisabled();
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue-workbook/02-bad-row');
  await dialog.getByRole('button', { name: '取消' }).click();
  await page.reload();
  await expect(page.getByText('￥612').first()).toBeVisible();
  await staff.close();
});
