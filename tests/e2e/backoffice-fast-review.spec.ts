// 资料审核 by keyboard alone (issue 27): the operator takes a three-applicant
// order and reviews every file with the keys only — F on the first file opens
// the reason dialog with a reason focused (Space ticks it, Enter confirms),
// P passes a file and moves on, J/K move between files, A passes the rest of
// an applicant's files. The first file is a PDF, drawn inline by PDF.js (a
// canvas, not an empty box). After the last file the workbench opens the
// operator's next order in review; the stored reviews are checked in the
// database: one no-pass with its reason, every other file passed, the round
// ended as failed.
import { expect } from '@playwright/test';
import { FIXTURES } from '../fixtures/index';
import { orderAt } from './order-factories';
import { e2eDatabase, hydrated, loggedInTest, openWorkbenchFold, snap, staffPage } from './support';

const files = (page: import('@playwright/test').Page) => page.getByTestId('review-file');

loggedInTest(
  'an order reviewed by keyboard alone: F + reason + Enter, P, J/K, A; then the next order opens',
  async ({ browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(180_000);
    const parties = { baseURL: baseURL!, customer, operator };
    const applicants = [
      { name: '韩知远', identity_id: 0, mobile_phone: '13700137001' },
      { name: '韩知夏', identity_id: 0, mobile_phone: '13700137002' },
      { name: '韩知秋', identity_id: 0, mobile_phone: '13700137003' },
    ];
    const { userOrderId, product } = await orderAt(parties, 'material_review', {
      applicants,
      firstFile: { path: FIXTURES.pdf, type: 'application/pdf', name: 'bank-statement.pdf' },
    });
    // The operator's next order in review, which the workbench opens after the last file.
    const { userOrderId: nextOrderId } = await orderAt(parties, 'material_review', { product, applicants: applicants.slice(0, 1) });

    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${nextOrderId}`);
    await hydrated(staff);
    await staff.getByTestId('workbench-take').click();
    await expect(staff.getByTestId('workbench-take')).toHaveCount(0);
    await staff.goto(`/admin/orders/${userOrderId}`);
    await hydrated(staff);
    await staff.getByTestId('workbench-take').click();
    await expect(staff.getByTestId('workbench-next')).toContainText('下一步：审核');
    // The review is the task: the paper materials, asked for only once it passes, wait collapsed below.
    await expect(staff.getByTestId('workbench-mail')).toHaveCount(0);
    await expect(staff.getByTestId('fold-mail')).toContainText('客户尚未寄出资料');

    // The first file (a PDF) is shown, drawn on a canvas beside its checklist item.
    await expect(staff.getByTestId('review-pdf')).toHaveAttribute('data-state', 'shown', { timeout: 20_000 });
    await expect(staff.getByTestId('review-pdf').locator('canvas').first()).toBeVisible();
    await snap(staff, 'backoffice/fast-review-pdf');
    // Zoom and rotate act on the file shown, and are reset for the next one.
    await staff.getByRole('button', { name: '放大' }).click();
    await staff.getByTestId('review-rotate').click();
    await expect(staff.getByTestId('review-view').locator('.fr-canvas')).toHaveAttribute('style', /rotate\(90deg\) scale\(1\.25\)/);
    const perApplicant = await files(staff).count();
    expect(perApplicant).toBeGreaterThan(2);

    // F: the dialog opens with a reason focused; Space ticks it, Enter confirms.
    const failedId = Number(await files(staff).first().getAttribute('data-file-id'));
    await staff.keyboard.press('f');
    const dialog = staff.getByRole('dialog');
    await expect(dialog.getByRole('checkbox', { name: '模糊不清' })).toBeFocused();
    await staff.keyboard.press('Space');
    await staff.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(files(staff).first()).toHaveAttribute('data-review-status', 'no_pass');
    // The cursor moved on to the second file: P passes it.
    await expect(files(staff).nth(1)).toHaveAttribute('aria-current', 'true');
    await expect(staff.getByTestId('review-view').locator('.fr-canvas')).toHaveAttribute('style', /rotate\(0deg\) scale\(1\)/);
    await staff.keyboard.press('p');
    await expect(files(staff).nth(1)).toHaveAttribute('data-review-status', 'passed');
    // K goes back, J forward again.
    await staff.keyboard.press('k');
    await expect(files(staff).nth(1)).toHaveAttribute('aria-current', 'true');
    await staff.keyboard.press('k');
    await expect(files(staff).first()).toHaveAttribute('aria-current', 'true');
    await staff.keyboard.press('j');
    await staff.keyboard.press('j');
    await expect(files(staff).nth(2)).toHaveAttribute('aria-current', 'true');
    // A: the rest of this applicant's files; the cursor goes to the next applicant's first file.
    await staff.keyboard.press('a');
    await expect(staff.getByTestId('review-applicant')).toHaveValue('1');
    // The second applicant file by file with P, the third with A.
    for (let i = 0; i < perApplicant; i += 1) {
      await expect(files(staff).nth(i)).toHaveAttribute('aria-current', 'true');
      await staff.keyboard.press('p');
    }
    await expect(staff.getByTestId('review-applicant')).toHaveValue('2');
    await snap(staff, 'backoffice/fast-review');
    await staff.keyboard.press('a');

    // The round ended (one file failed) and the operator's next order in review opened.
    await expect(staff).toHaveURL(new RegExp(`/admin/orders/${nextOrderId}$`));
    await expect(staff.getByTestId('fast-review')).toBeVisible();
    // The review step and a later one at 1280 and 390 px, for a reader of the pictures.
    for (const width of [1280, 390]) {
      await staff.setViewportSize({ width, height: 900 });
      await snap(staff, `backoffice/fast-review-${width}`);
    }
    await staff.goto(`/admin/orders/${userOrderId}`);
    await expect(staff.getByTestId('workbench-step')).toHaveText('待重新上传资料');
    await openWorkbenchFold(staff, 'files');
    await expect(staff.getByTestId('fast-review')).toBeVisible();
    // Outside a review the files are shown, not decided: no pass/no-pass buttons.
    await expect(staff.getByTestId('review-pass')).toHaveCount(0);
    for (const width of [1280, 390]) {
      await staff.setViewportSize({ width, height: 900 });
      await snap(staff, `backoffice/workbench-reupload-${width}`);
    }

    const db = e2eDatabase();
    const stored = db
      .prepare('select file_id, review_status, review_reasons, reviewed_by from order_material_file where user_order_id = ? order by file_id')
      .all(userOrderId) as Array<{ file_id: number; review_status: string; review_reasons: string | null; reviewed_by: number | null }>;
    const order = db.prepare('select status, step from user_order where user_order_id = ?').get(userOrderId) as { status: string; step: string };
    const events = db.prepare('select event from order_event where user_order_id = ? order by event_id').all(userOrderId) as Array<{ event: string }>;
    db.close();
    expect(stored).toHaveLength(perApplicant * applicants.length);
    expect(stored.filter((f) => f.review_status === 'no_pass').map((f) => f.file_id)).toEqual([failedId]);
    expect(JSON.parse(stored.find((f) => f.file_id === failedId)!.review_reasons!)).toEqual(['blurred']);
    expect(stored.filter((f) => f.review_status === 'passed')).toHaveLength(stored.length - 1);
    expect(stored.every((f) => f.reviewed_by === operator.operatorId)).toBe(true);
    expect(order.step).toBe('reupload_needed');
    expect(events.filter((e) => e.event === 'material_review')).toHaveLength(stored.length);
    expect(events.map((e) => e.event)).toContain('material_review_failed');
    await staff.context().close();
  },
);
