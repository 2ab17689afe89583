// 产品管理 end to end (issue 26), the whole chain with data of its own: a
// supervisor creates a country with a consulate (a district without a province
// is refused first) and its national day (a second editor's stale save of it
// is refused with the conflict banner), then a product of that consulate
// that needs an interview, with a checklist (one required, one optional
// material, reordered), previews it with the guest page's own components,
// saves and publishes it, and generates the consulate's interview slots; a
// customer then finds it on the guest product page, orders it, uploads the
// required material and books one of the new consulate's times. What the
// chain does not cover stays in its own specs: reviews
// (backoffice-catalogue-places), closures and booked-slot reductions
// (backoffice-slots), the workbook (backoffice-catalogue-workbook).
// Screenshots of the editors at 1280 px (and 390 px) under
// screenshots/tmp/catalogue/ and screenshots/tmp/catalogue-places/ (the slots
// page and the customer's time picker are shot by backoffice-slots; each
// shot waits ~2 s for antd's click wave to fade, so there are no more).
import { expect, type Page, test } from '@playwright/test';
import { addDays, chinaDate } from '../../common/order';
import { FIXTURES } from '../fixtures/index';
import { unusedIsoCode } from './catalogue-places-support';
import { animationsSettled, e2eDatabase, hydrated, loggedInTest, pickDate, snap, staffPage, typeInPicker } from './support';

/** The open antd dropdown's option with this text. */
const option = (page: Page, text: string) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: text }).first();

/** A searchable antd Select: type, then click the option. */
async function chooseInSelect(page: Page, label: string, text: string) {
  const select = page.getByLabel(label, { exact: true });
  await select.click();
  await select.fill(text);
  await option(page, text).click();
}

function one<T>(sql: string, ...params: unknown[]): T {
  const db = e2eDatabase();
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
}

loggedInTest(
  'a supervisor creates a country, a consulate and a product with a checklist and slots, previews and publishes it; a customer orders it and books a slot',
  async ({ page, browser, baseURL, supervisor }) => {
    test.setTimeout(240_000);
    const iso = unusedIsoCode();
    const suffix = Date.now() % 100_000;
    const countryName = `测试国${suffix}`;
    const consulate = `${countryName}驻华大使馆签证处`;
    const desc = `后台新品${suffix}`;
    const staff = await staffPage(browser, supervisor, baseURL!, { viewport: { width: 1280, height: 900 } });

    // 1. 国家与领区: the country, its consulate and the provinces it covers, its national day.
    await staff.goto('/admin/catalogue/countries');
    await hydrated(staff);
    await expect(staff.getByRole('heading', { name: '国家与领区' })).toBeVisible();
    await snap(staff, 'tmp/catalogue-places/01-countries');
    await staff.getByRole('button', { name: '新建国家' }).click();
    await expect(staff).toHaveURL(/\/admin\/catalogue\/countries\/edit$/);
    await hydrated(staff);
    await staff.getByLabel('国家代码（ISO 3166-1）').fill(iso.toLowerCase());
    await expect(staff.getByTestId('country-flag')).toHaveAttribute('src', `/static/flags/4x3/${iso.toLowerCase()}.svg`);
    await staff.getByLabel('国家名称').fill(countryName);
    await staff.getByLabel('英文名').fill('Testland');
    await staff.getByLabel('简介').fill('办理该国签证请提前一个月准备资料。');
    await staff.getByRole('button', { name: '添加领区' }).click();
    const district = staff.getByRole('region', { name: '第 1 个领区' });
    await district.getByLabel('领区名称').fill('北京领区');
    await district.getByLabel('领馆名称').fill(consulate);
    await district.getByLabel('领馆城市').fill('北京');
    await district.getByLabel('领馆地址').fill('北京市朝阳区亮马桥路 8 号');
    // Without a province the district is refused, and nothing is created.
    await staff.getByRole('button', { name: '保存' }).click();
    await expect(district.getByText('领区至少要受理一个省份')).toBeVisible();
    await expect(staff).toHaveURL(/\/admin\/catalogue\/countries\/edit$/);
    const provinces = district.getByLabel('受理省份');
    for (const province of ['北京', '河北']) {
      await provinces.click();
      await provinces.fill(province);
      await option(staff, province).click();
      await expect(district.locator('.ant-select-selection-item', { hasText: province })).toBeVisible();
    }
    await staff.keyboard.press('Escape');
    // Its national day: the slot calendar closes the consulate on it every year.
    await staff.getByRole('button', { name: '添加闭馆日' }).click();
    const day = staff.getByRole('group', { name: '第 1 个闭馆日' });
    await day.getByLabel('日期（月-日）').fill('07-04');
    await day.getByLabel('名称').fill('独立日');
    await animationsSettled(staff);
    await snap(staff, 'tmp/catalogue-places/02-country-editor');
    await staff.getByRole('button', { name: '保存' }).click();
    await expect(staff).toHaveURL(/\/admin\/catalogue\/countries\/edit\?country=\d+$/);
    const countryId = Number(new URL(staff.url()).searchParams.get('country'));
    await expect(staff.getByRole('heading', { name: `编辑国家 · ${countryName}` })).toBeVisible();
    // Stored as typed (the code in capitals): the reloaded editor shows it.
    const saved = staff.getByRole('region', { name: '第 1 个领区' });
    await expect(saved.getByLabel('领馆地址')).toHaveValue('北京市朝阳区亮马桥路 8 号');
    await expect(saved.locator('.ant-select-selection-item', { hasText: '北京市' })).toBeVisible();
    await expect(saved.locator('.ant-select-selection-item', { hasText: '河北省' })).toBeVisible();
    await expect(staff.getByLabel('国家代码（ISO 3166-1）')).toHaveValue(iso);
    await expect(staff.getByRole('group', { name: '第 1 个闭馆日' }).getByLabel('名称')).toHaveValue('独立日');
    const { districtId } = one<{ districtId: number }>('select consular_district_id as districtId from consular_district where visa_country_id = ?', countryId);
    // Another editor saves the country meanwhile (its version moves, migration 058): this editor's save is refused
    // with the conflict banner, nothing is written, and the form keeps what was typed.
    const db = e2eDatabase();
    db.prepare('update visa_country set version = version + 1 where visa_country_id = ?').run(countryId);
    db.close();
    await saved.getByLabel('领馆城市').fill('北京市');
    await staff.getByRole('button', { name: '保存' }).click();
    await expect(staff.getByTestId('editor-conflict')).toContainText('该国家已被他人修改');
    await expect(staff.getByRole('button', { name: '保存' })).toBeDisabled();
    await expect(saved.getByLabel('领馆城市')).toHaveValue('北京市');
    expect(one<{ city: string }>('select city from consular_district where consular_district_id = ?', districtId).city).toBe('北京');
    // (No wait for the 保存 button's 2-second click wave: the banner is what this shot is for.)
    await snap(staff, 'tmp/catalogue-places/03-country-conflict');
    await staff.setViewportSize({ width: 390, height: 844 });
    await staff.getByRole('heading', { name: '闭馆日（每年）' }).scrollIntoViewIfNeeded();
    await snap(staff, 'tmp/catalogue-places/02b-country-editor-390');
    await staff.setViewportSize({ width: 1280, height: 900 });

    // 2. The product, of that consulate, with an interview.
    await staff.goto('/admin/catalogue/countries');
    await hydrated(staff);
    await expect(staff.getByRole('link', { name: countryName })).toHaveAttribute('href', `/admin/catalogue/countries/edit?country=${countryId}`);
    await staff.goto('/admin/catalogue');
    await hydrated(staff);
    await expect(staff.getByRole('heading', { name: '产品管理' })).toBeVisible();
    await snap(staff, 'tmp/catalogue/01-list');
    await staff.getByRole('button', { name: '新建产品' }).click();
    await expect(staff).toHaveURL(/\/admin\/catalogue\/edit$/);
    await hydrated(staff);

    // 基本与价格
    await chooseInSelect(staff, '国家', countryName);
    await staff.getByLabel('领区', { exact: true }).click();
    await option(staff, '北京领区').click();
    await expect(staff.locator('.ant-select', { has: staff.getByRole('combobox', { name: /^领区/ }) })).toContainText('北京领区');
    await staff.getByLabel('产品说明（特别描述）').fill(desc);
    await staff.getByLabel('办理时长说明').fill('约 6 个工作日出签');
    await staff.getByLabel('价格（元）').fill('388');
    const interview = staff.getByLabel('需要面试/录指纹');
    if (!(await interview.isChecked())) await interview.click();
    await expect(interview).toBeChecked();
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

    // 材料清单: the employed identity (offered by default) gets an optional and a required material, reordered by
    // dragging a row's handle and with the keyboard-reachable buttons.
    await staff.getByRole('tab', { name: '材料清单' }).click();
    const employed = staff.getByRole('tabpanel', { name: '在职人员' });
    await employed.getByRole('button', { name: '添加资料' }).click();
    await employed.getByLabel('资料名称').nth(0).fill('在职证明');
    await employed.getByRole('checkbox', { name: '必备' }).nth(0).uncheck();
    await employed.getByRole('button', { name: '添加资料' }).click();
    await employed.getByLabel('资料名称').nth(1).fill('护照首页');
    await employed.getByLabel('注意事项').nth(1).fill('彩色扫描，四角完整');
    await employed.getByTestId('list-drag-handle').nth(1).dragTo(employed.locator('.cat-list-row').nth(0));
    await expect(employed.getByLabel('资料名称').nth(0)).toHaveValue('护照首页');
    await employed.getByRole('button', { name: '下移第 1 条资料' }).click();
    await expect(employed.getByLabel('资料名称').nth(0)).toHaveValue('在职证明');
    await employed.getByRole('button', { name: '上移第 2 条资料' }).click();
    await expect(employed.getByLabel('资料名称').nth(0)).toHaveValue('护照首页');
    await expect(employed.getByRole('checkbox', { name: '必备' }).nth(0)).toBeChecked();
    await expect(employed.getByRole('checkbox', { name: '必备' }).nth(1)).not.toBeChecked();
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
    // The saved draft's URL reloads the editor, which starts afresh (keyed by draft and version) on its first tab:
    // until then a 发布 confirmation opened in the old one is torn down under the click (a retry under load, 2026-11).
    await expect(staff.getByRole('tab', { name: '基本与价格' })).toHaveAttribute('aria-selected', 'true');
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
    await staff.setViewportSize({ width: 1280, height: 900 });

    // 3. 面试时段 of the new consulate: one week from the Monday at least a week ahead (inside every customer's booking window).
    let from = addDays(chinaDate(Date.now()), 7);
    while (new Date(`${from}T00:00:00Z`).getUTCDay() !== 1) from = addDays(from, 1);
    const to = addDays(from, 4);
    await staff.goto(`/admin/catalogue/slots?district=${districtId}&from=${from}`);
    await hydrated(staff);
    await expect(staff.getByRole('heading', { name: '面试时段' })).toBeVisible();
    await typeInPicker(staff, 'slots-from', from);
    await typeInPicker(staff, 'slots-to', to);
    await typeInPicker(staff, 'slots-start-0', '09:15');
    await typeInPicker(staff, 'slots-end-0', '09:45');
    await staff.getByLabel('每个时段可约人数').fill('3');
    await staff.getByTestId('slots-generate-submit').click();
    await expect(staff.getByTestId('slots-generate-done')).toContainText('新建');
    const { days, first } = one<{ days: number; first: string }>(
      `select count(*) as days, min(slot_date) as first from interview_slot where consular_district_id = ? and start_time = '09:15' and capacity = 3`,
      districtId,
    );
    // Five weekdays, less any Chinese holiday among them (skipped, and named in the answer).
    expect(days).toBeGreaterThanOrEqual(1);
    await expect(staff.getByTestId('slots-generate-done')).toContainText(`已为 ${days} 天新建 ${days} 个时段`);
    await expect(staff.getByTestId('slots-chip').first()).toHaveText('09:15–09:45 0/3');
    await staff.context().close();

    // 4. The customer finds it on the guest page, orders it, uploads the required material and books a time.
    await page.goto(`/visa/product/${productId}`);
    await hydrated(page);
    await expect(page.getByText(desc).first()).toBeVisible();
    await expect(page.getByText('护照首页')).toBeVisible();
    await page.getByTestId('product-apply').click();
    await expect(page).toHaveURL(new RegExp(`/ordering/create-order\\?visa_product_id=${productId}&`));
    await hydrated(page);
    const applicant = page.getByTestId('applicant-item').first();
    await applicant.getByTestId('applicant-name').fill('吴新国');
    await applicant.getByTestId('applicant-identity').click();
    await option(page, '在职人员').click();
    await applicant.getByTestId('applicant-mobile').fill('13800138031');
    // The product's own consulate: fixed.
    await expect(page.getByTestId('district-select')).toContainText('北京领区');
    await pickDate(page, 'departure-date', addDays(to, 10));
    await page.getByTestId('create-order-submit').click();
    await page.waitForURL(/\/ordering\/upload\/\d+$/);
    const orderId = Number(/\/ordering\/upload\/(\d+)$/.exec(page.url())![1]);
    await hydrated(page);
    const items = page.getByTestId('upload-item');
    await expect(items).toHaveCount(2);
    const required = items.filter({ has: page.locator('.up-required') });
    await expect(required).toHaveCount(1);
    await expect(required).toContainText('护照首页');
    await required.locator('.up-slot-actions input[type=file]').setInputFiles(FIXTURES.jpeg);
    await expect(required.getByTestId('upload-file')).toHaveCount(1);
    await expect(page.getByTestId('upload-missing')).toHaveText('必备资料已齐全');
    await page.getByTestId('upload-next').click();

    await page.waitForURL(`**/ordering/choose-interview-time/${orderId}`);
    await expect(page.getByTestId('interview-consulate')).toContainText(consulate);
    await hydrated(page);
    const card = page.getByTestId('interview-applicant').first();
    // The first generated day (the days before it have the standard plan's times): its one time, three places.
    // Under load a click on an option still sliding in can be lost (CI, once): choose until the select shows the day.
    const firstDay = `${Number(first.slice(5, 7))}月${Number(first.slice(8, 10))}日`;
    await expect(async () => {
      await page.keyboard.press('Escape'); // a dropdown left open by a lost attempt
      await card.getByTestId('interview-date').click();
      await animationsSettled(page);
      await option(page, firstDay).click({ timeout: 3_000 });
      await expect(card.getByTestId('interview-date')).toContainText(firstDay, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    const times = card.getByRole('radio');
    await expect(times).toHaveCount(1);
    await expect(card.locator('label.ci-time')).toContainText('09:15–09:45');
    await expect(card.locator('label.ci-time')).toContainText('余 3');
    await times.first().check();
    await expect(card.getByTestId('interview-chosen')).toBeVisible();
    await page.getByTestId('interview-confirm').click();
    await expect(page.getByTestId('interview-confirm-dialog')).toContainText('吴新国');
    await page.getByTestId('interview-confirm-submit').click();
    await page.waitForURL(`**/ordering/order-confirm/${orderId}`);

    // The order is of the new product, and its applicant holds one of the new consulate's times.
    const booking = one<{ product: number; district: number; start: string; booked: number; price: number }>(
      `select o.visa_product_id as product, s.consular_district_id as district, s.start_time as start, s.booked, o.unit_price as price
         from user_order o join order_applicant a on a.user_order_id = o.user_order_id join interview_slot s on s.interview_slot_id = a.interview_slot_id
        where o.user_order_id = ?`,
      orderId,
    );
    expect(booking).toMatchObject({ product: productId, district: districtId, start: '09:15', booked: 1, price: 38800 });
    expect(
      one<{ date: string }>(
        'select s.slot_date as date from order_applicant a join interview_slot s on s.interview_slot_id = a.interview_slot_id where a.user_order_id = ?',
        orderId,
      ).date,
    ).toBe(first);
  },
);
