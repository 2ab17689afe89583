// The courier rules both sides check: pickup windows, waybill numbers, status ranks.
import { describe, expect, it } from 'vitest';
import {
  contactProblem,
  normalizeWaybillNo,
  pickupWindowOptions,
  pickupWindowProblem,
  shipmentReached,
  shipmentStatusRank,
  waybillProblem,
} from './courier.ts';

const HOUR = 3_600_000;
/** Tuesday 1 December 2026, 10:00 in China. */
const T0 = Date.parse('2026-12-01T02:00:00Z');
const china = (date: string, hour: number, minute = 0) => Date.parse(`${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00+08:00`);

describe('pickup windows', () => {
  it('offers today’s windows that end at least an hour from now, then two more days', () => {
    const options = pickupWindowOptions(T0);
    expect(options[0]).toEqual({ start: china('2026-12-01', 9), end: china('2026-12-01', 11) });
    expect(options).toHaveLength(5 + 5 + 5);
    expect(options.at(-1)).toEqual({ start: china('2026-12-03', 17), end: china('2026-12-03', 19) });
    // At 10:30 the 9–11 window has less than an hour left; after 18:00 today is over.
    expect(pickupWindowOptions(china('2026-12-01', 10, 30))[0]!.start).toBe(china('2026-12-01', 11));
    expect(pickupWindowOptions(china('2026-12-01', 18, 30))).toHaveLength(10);
    // Late in the evening (China time, whatever the server's zone) "today" is still the China day.
    expect(pickupWindowOptions(china('2026-12-01', 23, 50))[0]!.start).toBe(china('2026-12-02', 9));
  });

  it('refuses windows in the past, outside 08:00–20:00, too short or long, or too far ahead', () => {
    expect(pickupWindowProblem({ start: china('2026-12-01', 13), end: china('2026-12-01', 15) }, T0)).toBeNull();
    expect(pickupWindowProblem({ start: china('2026-12-01', 8), end: china('2026-12-01', 12) }, T0 - HOUR)).toBeNull();
    expect(pickupWindowProblem({ start: china('2026-11-30', 13), end: china('2026-11-30', 15) }, T0)).toMatch(/已过/);
    expect(pickupWindowProblem({ start: china('2026-12-01', 9), end: china('2026-12-01', 10, 30) }, T0)).toMatch(/已过或即将结束/);
    expect(pickupWindowProblem({ start: china('2026-12-01', 19), end: china('2026-12-01', 21) }, T0)).toMatch(/08:00–20:00/);
    expect(pickupWindowProblem({ start: china('2026-12-01', 7), end: china('2026-12-01', 9) }, T0)).toMatch(/08:00–20:00/);
    expect(pickupWindowProblem({ start: china('2026-12-01', 13), end: china('2026-12-01', 13, 30) }, T0)).toMatch(/1–4 小时/);
    expect(pickupWindowProblem({ start: china('2026-12-01', 12), end: china('2026-12-01', 17) }, T0)).toMatch(/1–4 小时/);
    expect(pickupWindowProblem({ start: china('2026-12-04', 9), end: china('2026-12-04', 11) }, T0)).toMatch(/3 天内/);
    expect(pickupWindowProblem({ start: 15, end: 10 }, T0)).toBe('请选择上门取件时间');
    expect(pickupWindowProblem({ start: Number.NaN, end: 10 }, T0)).toBe('请选择上门取件时间');
    expect(pickupWindowProblem({ start: 1.5, end: 2.5 }, T0)).toBe('请选择上门取件时间');
  });
});

describe('waybill numbers', () => {
  it('are normalised (spaces, hyphens, case) and checked by shape', () => {
    expect(normalizeWaybillNo(' sf 1234-5678-90123\u3000')).toBe('SF1234567890123');
    expect(waybillProblem('SF', 'SF1234567890123')).toBeNull();
    expect(waybillProblem('SF', '123456789012')).toBeNull();
    expect(waybillProblem('SF', 'SF123456789012')).toMatch(/顺丰单号/);
    expect(waybillProblem('ZTO', '78812345678901')).toBeNull();
    expect(waybillProblem('EMS', 'EA123456789CN')).toBeNull();
    expect(waybillProblem('OTHER', '1234567')).toMatch(/8–30 位/);
    expect(waybillProblem('OTHER', 'A'.repeat(31))).toMatch(/8–30 位/);
    expect(waybillProblem('YTO', 'YT12345678#9')).toMatch(/8–30 位/);
    expect(waybillProblem('JD', '')).toBe('请输入快递单号');
  });
});

describe('contacts', () => {
  it('follow the address book: name 1–20, a mainland mobile, detail 2–100', () => {
    const ok = { name: '张三', mobile_phone: '138 0013 8000', detail: '南京西路1号' };
    expect(contactProblem(ok)).toBeNull();
    expect(contactProblem({ ...ok, name: '\u3000' })).toMatch(/姓名/);
    expect(contactProblem({ ...ok, name: '名'.repeat(21) })).toMatch(/姓名/);
    expect(contactProblem({ ...ok, mobile_phone: '02150001234' })).toMatch(/手机号/);
    expect(contactProblem({ ...ok, detail: '号' })).toMatch(/详细地址/);
  });
});

describe('statuses', () => {
  it('rank from booked to delivered; cancelled reaches nothing', () => {
    expect(['booked', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered'].map((s) => shipmentStatusRank(s as never))).toEqual([0, 1, 2, 3, 4]);
    expect(shipmentStatusRank('cancelled')).toBe(-1);
    expect(shipmentReached('delivered', 'picked_up')).toBe(true);
    expect(shipmentReached('picked_up', 'delivered')).toBe(false);
    expect(shipmentReached('cancelled', 'booked')).toBe(false);
  });
});
