// The shared elements of spec §2.6 / §4 / §5 in a real browser, on the /dev/components showcase.
import { expect, test, type Page } from '@playwright/test';
import { animationsSettled, hydrated, snap } from './support';

test.beforeEach(async ({ page }) => {
  await page.goto('/dev/components');
  await expect(page).toHaveTitle('组件示例 - 易签通');
  await hydrated(page);
});

async function openDialog(page: Page) {
  await page.getByTestId('open-dialog').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('签证材料说明')).toBeVisible();
  return dialog;
}

test.describe('shared dialog', () => {
  test('shows title, subtitle, header slot and a scrolling body; Escape closes it', async ({ page }) => {
    const dialog = await openDialog(page);
    await expect(dialog.getByText('请在出行前准备以下材料')).toBeVisible();
    await expect(dialog.getByText('示例', { exact: true })).toBeVisible();
    const body = dialog.locator('.ant-modal-body');
    const { scrollHeight, clientHeight, overflowY } = await body.evaluate((el) => ({
      scrollHeight: el.scrollHeight,
      clientHeight: el.clientHeight,
      overflowY: getComputedStyle(el).overflowY,
    }));
    expect(overflowY).toBe('auto');
    expect(scrollHeight).toBeGreaterThan(clientHeight);
    // The header is not covered by the close button.
    const headerRight = await dialog.getByText('示例', { exact: true }).boundingBox();
    const close = await dialog.getByRole('button', { name: /close|关闭/i }).boundingBox();
    expect(headerRight && close && headerRight.x + headerRight.width <= close.x).toBe(true);
    await animationsSettled(page);
    await snap(page, 'shared-dialog-open');

    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test('a mask click does not close it; the close button does', async ({ page }) => {
    const dialog = await openDialog(page);
    // Top-left corner: outside the centered dialog, on the mask.
    await page.mouse.click(8, 8);
    await page.waitForTimeout(500);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: /close|关闭/i }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test('a query change keeps it open; a path change closes it while the page stays mounted', async ({ page }) => {
    // Page state set before the dialog opens proves the page is not remounted below.
    await page.getByTestId('demo-select').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '探亲签证' }).click();
    await expect(page.getByTestId('select-value')).toHaveText('当前选择：family');

    const dialog = await openDialog(page);
    // Clicked until it took effect: a click while the dialog still zooms in can miss under load.
    await expect(async () => {
      await dialog.getByTestId('dialog-link-query').click();
      await expect(page).toHaveURL(/\/dev\/components\?tab=2$/, { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await page.waitForTimeout(300);
    await expect(dialog).toBeVisible();

    await dialog.getByTestId('dialog-link-same-route').click();
    await expect(page).toHaveURL(/\/dev\/components\/$/);
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.getByTestId('select-value')).toHaveText('当前选择：family');
    // It opens again on the new path.
    await openDialog(page);
  });

  test('a link inside it navigates away and the dialog is gone', async ({ page }) => {
    const dialog = await openDialog(page);
    await dialog.getByTestId('dialog-link').click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page).toHaveTitle('关于我们 - 易签通');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.locator('.ant-modal-wrap:visible')).toHaveCount(0);
  });
});

test('the loading overlay shows its tip text, the default text, and goes away', async ({ page }) => {
  const section = page.getByTestId('demo-loading');
  // antd 6 nested Spin: the `.ant-spin` wrapper always holds the content; the overlay is `.ant-spin-section`.
  const custom = section.locator('.ant-spin', { has: page.getByTestId('loading-custom') });
  const plain = section.locator('.ant-spin', { has: page.getByTestId('loading-default') });
  const overlays = section.locator('.ant-spin-section');
  await expect(overlays).toHaveCount(0);
  await expect(section.locator('[aria-busy="true"]')).toHaveCount(0);

  await section.getByTestId('toggle-loading-custom').click();
  await expect(custom).toHaveAttribute('aria-busy', 'true');
  await expect(custom.locator('.ant-spin-section .ant-spin-dot')).toBeVisible();
  await expect(custom.locator('.ant-spin-section')).toHaveText('正在加载材料');
  await expect(plain.locator('.ant-spin-section')).toHaveCount(0);

  await section.getByTestId('toggle-loading-default').click();
  await expect(plain).toHaveAttribute('aria-busy', 'true');
  await expect(plain.locator('.ant-spin-section')).toHaveText('加载中');
  await expect(plain.locator('.ant-spin-section')).toBeVisible();
  // The overlay lies over the content, which stays mounted underneath.
  const overlayBox = (await plain.locator('.ant-spin-section').boundingBox())!;
  const contentBox = (await page.getByTestId('loading-default').boundingBox())!;
  expect(overlayBox.y).toBeGreaterThanOrEqual(contentBox.y - 1);
  expect(overlayBox.y + overlayBox.height).toBeLessThanOrEqual(contentBox.y + contentBox.height + 1);
  await expect(page.getByTestId('loading-default')).toContainText('订单信息区域');
  await section.scrollIntoViewIfNeeded();
  await snap(page, 'shared-loading-on');

  await section.getByTestId('toggle-loading-custom').click();
  await section.getByTestId('toggle-loading-default').click();
  await expect(overlays).toHaveCount(0);
  await expect(section.locator('.ant-spin-dot')).toHaveCount(0);
  await expect(section.getByText('正在加载材料')).toHaveCount(0);
  await expect(section.getByText('加载中', { exact: true })).toHaveCount(0);
  await expect(section.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByTestId('loading-custom')).toBeVisible();
  await expect(page.getByTestId('loading-default')).toBeVisible();
});

test('the image viewer opens on a thumb with toolbar and navbar, pages with arrows, closes on Escape', async ({ page }) => {
  await page.getByTestId('thumb-0').click();
  const viewer = page.locator('.viewer-container');
  await expect(viewer).toHaveCount(1);
  await expect(viewer).toBeVisible();
  await expect(viewer).toHaveClass(/viewer-in/);
  expect(await viewer.evaluate((el) => getComputedStyle(el).zIndex)).toBe('9999');

  const toolbar = viewer.locator('.viewer-toolbar');
  await expect(toolbar).toBeVisible();
  for (const button of [
    'zoom-in',
    'zoom-out',
    'one-to-one',
    'reset',
    'prev',
    'play',
    'next',
    'rotate-left',
    'rotate-right',
    'flip-horizontal',
    'flip-vertical',
  ]) {
    await expect(toolbar.locator(`.viewer-${button}`)).toBeVisible();
  }
  const navbar = viewer.locator('.viewer-navbar');
  await expect(navbar).toBeVisible();
  await expect(navbar.locator('li')).toHaveCount(2);
  await expect(navbar.locator('li').nth(0)).toHaveClass(/viewer-active/);
  await expect(viewer.locator('.viewer-title')).toContainText('证件照示例');
  // The image really loaded.
  await expect.poll(() => viewer.locator('.viewer-canvas img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
  await animationsSettled(page);
  await snap(page, 'shared-image-viewer-open');

  await page.keyboard.press('ArrowRight');
  await expect(navbar.locator('li').nth(1)).toHaveClass(/viewer-active/);
  await expect(viewer.locator('.viewer-title')).toContainText('材料示例');

  await page.keyboard.press('Escape');
  await expect(page.locator('.viewer-container')).toHaveCount(0);
  expect(await page.evaluate(() => document.body.style.overflow)).not.toBe('hidden');

  // It opens again after being destroyed, starting at the clicked image.
  await page.getByTestId('thumb-1').click();
  await expect(page.locator('.viewer-container .viewer-title')).toContainText('材料示例');
  await page.keyboard.press('Escape');
  await expect(page.locator('.viewer-container')).toHaveCount(0);
});

test('the drag-scroll list scrolls 200 px per wheel step and by dragging, without selecting text', async ({ page }) => {
  const list = page.getByTestId('drag-list');
  await list.scrollIntoViewIfNeeded();
  const scrollLeft = () => list.evaluate((el) => el.scrollLeft);
  expect(await list.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await scrollLeft()).toBe(0);

  const box = (await list.boundingBox())!;
  const pageScroll = await page.evaluate(() => window.scrollY);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 100);
  await expect.poll(scrollLeft).toBe(200);
  // The wheel went to the list, not the page.
  expect(await page.evaluate(() => window.scrollY)).toBe(pageScroll);
  await page.mouse.wheel(0, 100);
  await expect.poll(scrollLeft).toBe(400);
  await page.mouse.wheel(0, -100);
  await expect.poll(scrollLeft).toBe(200);

  const userSelectBefore = await page.evaluate(() => getComputedStyle(document.body).userSelect);
  expect(userSelectBefore).not.toBe('none');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x - 50, y, { steps: 5 });
  await page.mouse.move(x - 150, y, { steps: 5 });
  expect(await page.evaluate(() => getComputedStyle(document.body).userSelect)).toBe('none');
  expect(await scrollLeft()).toBe(350);
  await page.mouse.up();
  expect(await page.evaluate(() => getComputedStyle(document.body).userSelect)).toBe(userSelectBefore);
  expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
  expect(await scrollLeft()).toBe(350);
});

test("the select offers '全部' first and reports it", async ({ page }) => {
  const section = page.getByTestId('demo-select');
  await expect(section.getByTestId('select-value')).toHaveText('当前选择：未选择');
  await section.locator('.ant-select').click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(options).toHaveText(['全部', '旅游签证', '商务签证', '探亲签证']);
  await options.filter({ hasText: '商务签证' }).click();
  await expect(section.getByTestId('select-value')).toHaveText('当前选择：business');
  await section.locator('.ant-select').click();
  await options.filter({ hasText: '全部' }).click();
  await expect(section.getByTestId('select-value')).toHaveText('当前选择：全部');
  await expect(section.locator('.ant-select')).toContainText('全部');
});

test('the trimmed input reports the normalized text on change and on blur', async ({ page }) => {
  const section = page.getByTestId('demo-trimmed-input');
  const input = section.getByLabel('姓名');
  const value = section.getByTestId('form-value');

  // Blur alone reaches form validation: the required rule fires.
  await input.focus();
  await input.blur();
  await expect(section.getByText('请输入姓名')).toBeVisible();

  // On change: the form holds the normalized text while the user's own text stays shown.
  await input.focus();
  await page.keyboard.insertText('\u3000张三\u2003');
  await expect(value).toHaveText(JSON.stringify('张三'));
  await expect(input).toHaveValue('\u3000张三\u2003');
  await expect(section.getByText('请输入姓名')).toHaveCount(0);

  // On blur: the shown text is normalized too.
  await input.blur();
  await expect(input).toHaveValue('张三');
  await expect(value).toHaveText(JSON.stringify('张三'));

  // Inner unicode spaces become normal spaces; only-space input is empty and fails the rule.
  await input.fill('\u2002李\u205F四\u202F');
  await expect(value).toHaveText(JSON.stringify('李 四'));
  await input.fill('\u3000\u2000 ');
  await expect(value).toHaveText(JSON.stringify(''));
  await expect(section.getByText('请输入姓名')).toBeVisible();
  await input.blur();
  await expect(input).toHaveValue('');
});

test('the page fits a 390 px phone screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('heading', { name: '组件示例' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, 'shared-elements-390');
  const dialog = await openDialog(page);
  await animationsSettled(page);
  const box = (await dialog.locator('.ant-modal-container, .ant-modal-content').first().boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, 'shared-dialog-390');
});
