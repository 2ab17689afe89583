// 产品管理 end to end (issue 26): a supervisor creates a product with a
// checklist in the back office, previews it with the guest page's own
// components, saves and publishes it; a customer then finds it on the guest
// product page and starts an order. Screenshots of the editor at 1280 px (and
// one at 390 px) under screenshots/tmp/catalogue/.
import { expect, type Page, test } from '@playwright/test';
import { animationsSettled, createProduct, hydrated, loggedInTest, snap, staffPage } from './support';

async function chooseInSelect(page: Page, label: string, text: string) {
  const select = page.getByLabel(label, { exact: true });
  await select.click();
  await select.fill(text);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: text }).first().click();
}

loggedInTest('a supervisor creates, previews and publishes a product; a customer orders it', async ({ page, browser, baseURL, supervisor }) => {
  test.setTimeout(180_000);
  // A country of the test's own (with its consulates) to sell the product in.
  const existing = await createProduct();
  const desc = `后台新品${Date.now() % 100_000}`;

  const staff = await staffPage(browser, supervisor, baseURL!, { viewport: { width: 1280, height: 900 } });
  await staff.goto('/admin/catalogue');
  await hydrated(staff);
  await expect(staff.getByRole('heading', { name: '产品管理' })).toBeVisible();
  await expect(staff.getByRole('link', { name: '产品管理' })).toBeVisible();
  await snap(staff, 'tmp/catalogue/01-list');
  await staff.getByRole('button', { name: '新建产品' }).click();
  await expect(staff).toHaveURL(/\/admin\/catalogue\/edit$/);
  await hydrated(staff);

  // 基本与价格
  await chooseInSelect(staff, '国家', existing.country);
  await staff.getByLabel('产品说明（特别描述）').fill(desc);
  await staff.getByLabel('办理时长说明').fill('约 6 个工作日出签');
  await staff.getByLabel('价格（元）').fill('388');
  await staff.getByLabel('需要签证照片').click();
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue/02-editor-basics');

  // 页面内容
  await staff.getByRole('tab', { name: '页面内容' }).click();
  await staff.getByRole('button', { name: '添加基本信息' }).click();
  await staff.getByLabel('基本信息标题').fill('费用说明');
  await staff.getByLabel('基本信息内容').fill('含使馆签证费与服务费');
  await staff.getByRole('button', { name: '添加流程步骤' }).click();
  await staff.getByLabel('流程标题').fill('在线提交资料');
  await staff.getByLabel('温馨提示').fill('请至少提前 15 个工作日办理。');
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue/03-editor-content');

  // 材料清单: the employed identity (offered by default) gets two materials, reordered with the keyboard-reachable buttons.
  await staff.getByRole('tab', { name: '材料清单' }).click();
  const employed = staff.getByRole('tabpanel', { name: '在职人员' });
  await employed.getByRole('button', { name: '添加资料' }).click();
  await employed.getByLabel('资料名称').nth(0).fill('在职证明');
  await employed.getByRole('button', { name: '添加资料' }).click();
  await employed.getByLabel('资料名称').nth(1).fill('护照首页');
  await employed.getByLabel('注意事项').nth(1).fill('彩色扫描，四角完整');
  await employed.getByRole('button', { name: '上移第 2 条资料' }).click();
  await expect(employed.getByLabel('资料名称').nth(0)).toHaveValue('护照首页');
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue/04-editor-checklist');

  // 预览: the guest page's components with what is not yet published.
  await staff.getByRole('tab', { name: '预览' }).click();
  const preview = staff.getByTestId('product-preview');
  await expect(preview.getByText(desc).first()).toBeVisible();
  await expect(preview.getByText('护照首页')).toBeVisible();
  await expect(preview.getByText('￥388')).toBeVisible();
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue/05-editor-preview');

  // Save the draft, then publish.
  await staff.getByRole('button', { name: '保存草稿' }).click();
  await expect(staff).toHaveURL(/\/admin\/catalogue\/edit\?draft=\d+$/);
  await expect(staff.getByText(/草稿 · 第 1 版/)).toBeVisible();
  await staff.getByRole('button', { name: '发布' }).click();
  await staff.getByRole('tooltip').getByRole('button', { name: '发布' }).click();
  await expect(staff).toHaveURL(/\/admin\/catalogue\/edit\?product=\d+$/);
  const productId = Number(new URL(staff.url()).searchParams.get('product'));
  await expect(staff.getByText('与已发布一致')).toBeVisible();
  await staff.getByRole('tab', { name: '发布记录' }).click();
  await expect(staff.getByRole('cell', { name: supervisor.name })).toBeVisible();
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue/06-editor-publications');
  await staff.setViewportSize({ width: 390, height: 844 });
  await staff.getByRole('tab', { name: '基本与价格' }).click();
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue/07-editor-390');
  await staff.context().close();

  // The customer sees it on the guest page and starts an order.
  await page.goto(`/visa/product/${productId}`);
  await hydrated(page);
  await expect(page.getByText(desc).first()).toBeVisible();
  await expect(page.getByText('护照首页')).toBeVisible();
  await page.getByTestId('product-apply').click();
  await expect(page).toHaveURL(new RegExp(`/ordering/create-order\\?visa_product_id=${productId}&`));
  await hydrated(page);
  await expect(page.getByTestId('create-order-submit')).toBeVisible();
});
