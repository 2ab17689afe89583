import { describe, expect, it } from 'vitest';
import { ACTION_LABELS, actionPath, scansPurgedAt, scheduleEntries } from './order-format';
import { earliestNewDeparture } from './departure-date-dialog';

describe('actions', () => {
  it('links the page actions and leaves continue and cancel to code', () => {
    expect(actionPath('pay', 7)).toBe('/ordering/order-confirm/7');
    expect(actionPath('choose_departure_date', 7)).toBe('/order/order-detail/7');
    expect(actionPath('reupload', 7)).toBe('/order/order-reupload/7');
    expect(actionPath('mail_materials', 7)).toBe('/order/order-mail-list/7');
    expect(actionPath('confirm_page_check', 7)).toBe('/order/order-page-check/7');
    expect(actionPath('continue', 7)).toBeNull();
    expect(actionPath('cancel', 7)).toBeNull();
  });
  it('has a label for every action', () => {
    expect(Object.values(ACTION_LABELS).every((label) => label.length > 0)).toBe(true);
  });
});

describe('earliestNewDeparture', () => {
  it('is today, or the order date when that is still to come', () => {
    expect(earliestNewDeparture('2026-11-20', '2026-12-01')).toBe('2026-12-01');
    expect(earliestNewDeparture('2026-12-10', '2026-12-01')).toBe('2026-12-10');
  });
});

describe('scheduleEntries', () => {
  it('is newest first and folds runs of the same event by the same actor', () => {
    const e = (event: string, actor: string, at: number) => ({ event, actor, created_at: at });
    const entries = scheduleEntries([
      e('create', 'customer', 1),
      e('material_upload', 'customer', 2),
      e('material_upload', 'customer', 3),
      e('material_upload', 'customer', 4),
      e('confirm', 'customer', 5),
      e('material_upload', 'customer', 6),
    ]);
    expect(entries.map((entry) => [entry.event.event, entry.count, entry.event.created_at])).toEqual([
      ['material_upload', 1, 6],
      ['confirm', 1, 5],
      ['material_upload', 3, 4],
      ['create', 1, 1],
    ]);
  });
});

describe('scansPurgedAt', () => {
  const e = (event: string, at: number) => ({ event, created_at: at });
  it('is the first retention_purge, when the scans went; a later one (an e-visa expiring) does not move it', () => {
    expect(scansPurgedAt([e('pay', 1), e('complete', 2), e('retention_purge', 30), e('retention_purge', 400)])).toBe(30);
  });
  it('is null while the scans are kept', () => {
    expect(scansPurgedAt([e('pay', 1), e('complete', 2)])).toBeNull();
  });
});
