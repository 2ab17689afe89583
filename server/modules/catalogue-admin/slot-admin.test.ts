// 产品管理 · 面试时段 (issue 26) on SQLite or PostgreSQL (TEST_DATABASE_URL):
// a supervisor generates a consulate's slots over a range (weekends, closures
// skipped; a second run changes nothing), closes a day and opens it again,
// changes a capacity (never below the bookings), deletes an unbooked slot; the
// customer's interview-time list shows each change at once; every change is
// audited; bad input is refused in Chinese, an operator is refused, and random
// bodies never answer 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminSlotCalendar,
  adminSlotCapacity,
  adminSlotClosureAdd,
  adminSlotClosureRemove,
  adminSlotDelete,
  adminSlotGenerate,
} from '../../../common/contracts/interview-slot-admin.ts';
import type { InterviewSlotListResult } from '../../../common/contracts/interview.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';

/** Tuesday 1 December 2026, 10:00 in China (no Chinese holiday in December). */
const T0 = Date.parse('2026-12-01T02:00:00Z');
const CHINESE = /[\u4e00-\u9fff]/;

let t: TestApp;
let boss: Awaited<ReturnType<TestApp['operator']>>;
let productId: number;
let districtId: number;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.now = T0;
  boss = await t.operator({ role: 'supervisor', name: '赵主管' });
  const product = await t.insertProduct({ district: 'own', interview: true });
  productId = product.visa_product_id;
  districtId = product.consular_district_id!;
});
afterAll(() => t?.close());

async function ok<T>(answer: Promise<{ body: { ret: number; msg: string }; result: T | null }>): Promise<T> {
  const { body, result } = await answer;
  expect(body.ret, body.msg).toBe(0);
  return result!;
}

async function refused(answer: Promise<{ body: { ret: number; msg: string } }>, ret: number): Promise<string> {
  const { body } = await answer;
  expect(body.ret, body.msg).toBe(ret);
  expect(body.msg).toMatch(CHINESE);
  return body.msg;
}

/** A customer's draft order of the product with `applicants` applicants, and the customer's token. */
async function customerOrder(applicants = 2): Promise<{ token: string; userOrderId: number }> {
  const who = await t.loggedInCustomer();
  const created = await t.call(
    '/www/order/order_create',
    {
      visa_product_id: productId,
      departure_date: '2027-01-20',
      applicants: Array.from({ length: applicants }, (_, i) => ({ name: `面签人${i + 1}`, identity_id: 0, mobile_phone: `1390013${9000 + i}` })),
    },
    { token: who.token },
  );
  expect(created.body.ret, created.body.msg).toBe(0);
  return { token: who.token, userOrderId: created.body.body.user_order_id as number };
}

async function customerDates(order: { token: string; userOrderId: number }): Promise<InterviewSlotListResult['dates']> {
  const answer = await t.call('/www/order/interview_slot_list', { user_order_id: order.userOrderId }, { token: order.token });
  expect(answer.body.ret, answer.body.msg).toBe(0);
  return (answer.body.body as InterviewSlotListResult).dates;
}

const generate = (overrides: Partial<Parameters<typeof boss.callContract<typeof adminSlotGenerate>>[1]> = {}) =>
  boss.callContract(adminSlotGenerate, {
    consular_district_id: districtId,
    from: '2026-12-07',
    to: '2026-12-20',
    weekdays: [1, 2, 3, 4, 5],
    times: [
      { start: '08:15', end: '08:45' },
      { start: '13:00', end: '13:40' },
    ],
    capacity: 2,
    ...overrides,
  });

async function slotOf(date: string, start: string) {
  return t.db
    .selectFrom('interview_slot')
    .selectAll()
    .where('consular_district_id', '=', districtId)
    .where('slot_date', '=', date)
    .where('start_time', '=', start)
    .executeTakeFirstOrThrow();
}

describe('interview slots from the back office', () => {
  it('generates slots over a range on the chosen weekdays; the customer sees exactly those times; a second run changes nothing', async () => {
    const first = await ok(generate());
    // 7–11 and 14–18 December: ten weekdays, two times each.
    expect(first).toMatchObject({ created: 20, existing: 0, days: 10, skipped: [] });
    expect(await ok(generate())).toMatchObject({ created: 0, existing: 20, days: 10 });

    const dates = await customerDates(await customerOrder());
    const day = dates.find((d) => d.date === '2026-12-08')!;
    expect(day.slots.map((s) => [s.start_time, s.end_time, s.capacity, s.remaining])).toEqual([
      ['08:15', '08:45', 2, 2],
      ['13:00', '13:40', 2, 2],
    ]);
    // Weekends are never offered, even when asked for.
    const weekend = await ok(generate({ from: '2026-12-19', to: '2026-12-21', weekdays: [0, 1, 2, 3, 4, 5, 6] }));
    expect(weekend.skipped).toEqual([
      { date: '2026-12-19', reason: '周末' },
      { date: '2026-12-20', reason: '周末' },
    ]);
    expect(weekend).toMatchObject({ created: 2, days: 1 });
  });

  it('a closed day disappears from the customer picker at once, is skipped by generation, and comes back when reopened', async () => {
    const order = await customerOrder(1);
    expect((await customerDates(order)).some((d) => d.date === '2026-12-09')).toBe(true);

    await ok(boss.callContract(adminSlotClosureAdd, { consular_district_id: districtId, date: '2026-12-09', reason: '领馆内部活动' }));
    expect((await customerDates(order)).some((d) => d.date === '2026-12-09')).toBe(false);
    await refused(
      boss.callContract(adminSlotClosureAdd, { consular_district_id: districtId, date: '2026-12-09', reason: '再次' }),
      ErrorCode.SLOT_CLOSURE_EXISTS,
    );

    const again = await ok(generate({ from: '2026-12-09', to: '2026-12-10', times: [{ start: '16:00', end: '16:30' }] }));
    expect(again.skipped).toEqual([{ date: '2026-12-09', reason: '领馆内部活动' }]);

    const calendar = await ok(boss.callContract(adminSlotCalendar, { consular_district_id: districtId, from: '2026-12-07', to: '2026-12-13' }));
    const closed = calendar.days.find((d) => d.date === '2026-12-09')!;
    expect(closed).toMatchObject({ closure: true, closed_for: '领馆内部活动' });
    expect(calendar.closures).toEqual([{ date: '2026-12-09', reason: '领馆内部活动', created_by: '赵主管', created_at: T0 }]);
    expect(calendar.days.find((d) => d.date === '2026-12-12')).toMatchObject({ closure: false, closed_for: '周末' });

    await ok(boss.callContract(adminSlotClosureRemove, { consular_district_id: districtId, date: '2026-12-09' }));
    expect((await customerDates(order)).some((d) => d.date === '2026-12-09')).toBe(true);
    await refused(boss.callContract(adminSlotClosureRemove, { consular_district_id: districtId, date: '2026-12-09' }), ErrorCode.SLOT_CLOSURE_NOT_FOUND);
  });

  it('a booked slot is reduced only down to its bookings, is not deleted, and its day is not closed', async () => {
    const order = await customerOrder(2);
    const slot = await slotOf('2026-12-14', '08:15');
    const list = await t.call('/www/order/interview_slot_list', { user_order_id: order.userOrderId }, { token: order.token });
    const applicants = (list.body.body as InterviewSlotListResult).applicants;
    const chosen = await t.call(
      '/www/order/interview_time_choose',
      { user_order_id: order.userOrderId, choices: applicants.map((a) => ({ applicant_id: a.applicant_id, interview_slot_id: slot.interview_slot_id })) },
      { token: order.token },
    );
    expect(chosen.body.ret, chosen.body.msg).toBe(0);

    const msg = await refused(boss.callContract(adminSlotCapacity, { interview_slot_id: slot.interview_slot_id, capacity: 1 }), ErrorCode.SLOT_BELOW_BOOKED);
    expect(msg).toBe('2026-12-14（周一）08:15–08:45 已有 2 人预约，容量不能少于 2（想改为 1）');
    expect((await slotOf('2026-12-14', '08:15')).capacity).toBe(2);

    expect(await ok(boss.callContract(adminSlotCapacity, { interview_slot_id: slot.interview_slot_id, capacity: 5 }))).toMatchObject({
      capacity: 5,
      booked: 2,
    });
    const other = await customerOrder(1);
    const seen = (await customerDates(other)).find((d) => d.date === '2026-12-14')!.slots.find((s) => s.start_time === '08:15')!;
    expect(seen).toMatchObject({ capacity: 5, remaining: 3, full: false });
    // Down to exactly the bookings is allowed: the time is then full for everyone else.
    await ok(boss.callContract(adminSlotCapacity, { interview_slot_id: slot.interview_slot_id, capacity: 2 }));
    expect((await customerDates(other)).find((d) => d.date === '2026-12-14')!.slots.find((s) => s.start_time === '08:15')).toMatchObject({ full: true });

    expect(await refused(boss.callContract(adminSlotDelete, { interview_slot_id: slot.interview_slot_id }), ErrorCode.SLOT_BOOKED)).toContain('已有 2 人预约');
    expect(
      await refused(
        boss.callContract(adminSlotClosureAdd, { consular_district_id: districtId, date: '2026-12-14', reason: '临时闭馆' }),
        ErrorCode.SLOT_DAY_BOOKED,
      ),
    ).toContain('已有 2 人预约');
    expect(await slotOf('2026-12-14', '08:15')).toMatchObject({ booked: 2, capacity: 2 });
  });

  it('deletes an unbooked slot but not the last one of its day', async () => {
    const afternoon = await slotOf('2026-12-15', '13:00');
    await ok(boss.callContract(adminSlotDelete, { interview_slot_id: afternoon.interview_slot_id }));
    const morning = await slotOf('2026-12-15', '08:15');
    await refused(boss.callContract(adminSlotDelete, { interview_slot_id: morning.interview_slot_id }), ErrorCode.SLOT_LAST_OF_DAY);
    const dates = await customerDates(await customerOrder(1));
    expect(dates.find((d) => d.date === '2026-12-15')!.slots.map((s) => s.start_time)).toEqual(['08:15']);
    await refused(boss.callContract(adminSlotDelete, { interview_slot_id: afternoon.interview_slot_id }), ErrorCode.SLOT_NOT_FOUND);
  });

  it('audits who changed what', async () => {
    const calendar = await ok(boss.callContract(adminSlotCalendar, { consular_district_id: districtId }));
    const summaries = calendar.changes.map((c) => c.summary);
    expect(calendar.changes.every((c) => c.operator_name === '赵主管')).toBe(true);
    expect(summaries).toContain('删除 2026-12-15（周二）13:00–13:40（容量 2）');
    expect(summaries).toContain('2026-12-14（周一）08:15–08:45 容量 2 → 5（已约 2）');
    expect(summaries).toContain('设 2026-12-09（周三）为闭馆日：领馆内部活动');
    expect(summaries).toContain('取消 2026-12-09（周三）的闭馆日（领馆内部活动）');
    expect(
      summaries.some((s) => s.startsWith('生成 2026-12-07 至 2026-12-20（周一、周二、周三、周四、周五）08:15–08:45、13:00–13:40，每个时段 2 人：新建 20 个')),
    ).toBe(true);
    // A refused change leaves no audit row.
    const rows = await t.db.selectFrom('interview_slot_audit').select('action').where('consular_district_id', '=', districtId).execute();
    expect(rows.filter((r) => r.action === 'capacity')).toHaveLength(2);
  });

  it('refuses bad input with a Chinese message and changes nothing', async () => {
    const before = await t.db
      .selectFrom('interview_slot')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(await refused(generate({ capacity: -1 }), ErrorCode.SLOT_INPUT_INVALID)).toBe('容量须为 0–999 的整数（收到 -1）');
    await refused(generate({ capacity: 1.5 }), ErrorCode.SLOT_INPUT_INVALID);
    await refused(generate({ capacity: 1000 }), ErrorCode.SLOT_INPUT_INVALID);
    expect(await refused(generate({ from: '2026-12-20', to: '2026-12-07' }), ErrorCode.SLOT_INPUT_INVALID)).toBe(
      '结束日期（2026-12-07）不能早于开始日期（2026-12-20）',
    );
    expect(await refused(generate({ from: '2026-12-02', to: '2027-12-03' }), ErrorCode.SLOT_INPUT_INVALID)).toBe('一次最多生成 366 天的时段（所选为 367 天）');
    await refused(generate({ from: '2026-11-30' }), ErrorCode.SLOT_INPUT_INVALID);
    await refused(generate({ from: '2026-02-30' }), ErrorCode.SLOT_INPUT_INVALID);
    await refused(generate({ weekdays: [] }), ErrorCode.SLOT_INPUT_INVALID);
    await refused(generate({ weekdays: [7] }), ErrorCode.SLOT_INPUT_INVALID);
    await refused(generate({ times: [] }), ErrorCode.SLOT_INPUT_INVALID);
    expect(await refused(generate({ times: [{ start: '10:30', end: '10:00' }] }), ErrorCode.SLOT_INPUT_INVALID)).toBe('结束时间须晚于开始时间：10:30–10:00');
    await refused(generate({ times: [{ start: '25:00', end: '25:30' }] }), ErrorCode.SLOT_INPUT_INVALID);
    await refused(
      generate({
        times: [
          { start: '09:00', end: '10:00' },
          { start: '09:30', end: '10:30' },
        ],
      }),
      ErrorCode.SLOT_INPUT_INVALID,
    );
    await refused(generate({ consular_district_id: 999_999 }), ErrorCode.SLOT_DISTRICT_NOT_FOUND);
    await refused(boss.callContract(adminSlotCalendar, { consular_district_id: 999_999 }), ErrorCode.SLOT_DISTRICT_NOT_FOUND);
    await refused(
      boss.callContract(adminSlotCalendar, { consular_district_id: districtId, from: '2026-12-01', to: '2027-03-01' }),
      ErrorCode.SLOT_INPUT_INVALID,
    );

    const slot = await slotOf('2026-12-16', '08:15');
    await refused(boss.callContract(adminSlotCapacity, { interview_slot_id: slot.interview_slot_id, capacity: -3 }), ErrorCode.SLOT_INPUT_INVALID);
    await refused(boss.callContract(adminSlotCapacity, { interview_slot_id: 999_999, capacity: 3 }), ErrorCode.SLOT_NOT_FOUND);
    await refused(boss.callContract(adminSlotClosureAdd, { consular_district_id: districtId, date: '2026-12-17', reason: '  ' }), ErrorCode.SLOT_INPUT_INVALID);
    await refused(
      boss.callContract(adminSlotClosureAdd, { consular_district_id: districtId, date: '2026-11-30', reason: '过去' }),
      ErrorCode.SLOT_INPUT_INVALID,
    );
    await refused(
      boss.callContract(adminSlotClosureAdd, { consular_district_id: 999_999, date: '2026-12-17', reason: '闭馆' }),
      ErrorCode.SLOT_DISTRICT_NOT_FOUND,
    );
    // Shapes the contract refuses.
    expect((await boss.call(adminSlotGenerate.path, { consular_district_id: districtId, capacity: '2' })).body.ret).toBe(ErrorCode.INVALID_PARAMS);

    const after = await t.db
      .selectFrom('interview_slot')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await slotOf('2026-12-16', '08:15')).capacity).toBe(2);
  });

  it('refuses an operator (2003) every slot call', async () => {
    const op = await t.operator({ role: 'operator' });
    const slot = await slotOf('2026-12-16', '08:15');
    const calls: Array<[string, unknown]> = [
      [adminSlotCalendar.path, { consular_district_id: districtId }],
      [
        adminSlotGenerate.path,
        { consular_district_id: districtId, from: '2026-12-21', to: '2026-12-22', weekdays: [1], times: [{ start: '08:00', end: '08:30' }], capacity: 1 },
      ],
      [adminSlotCapacity.path, { interview_slot_id: slot.interview_slot_id, capacity: 9 }],
      [adminSlotDelete.path, { interview_slot_id: slot.interview_slot_id }],
      [adminSlotClosureAdd.path, { consular_district_id: districtId, date: '2026-12-22', reason: '闭馆' }],
      [adminSlotClosureRemove.path, { consular_district_id: districtId, date: '2026-12-22' }],
    ];
    for (const [path, payload] of calls) {
      expect((await op.call(path, payload)).body.ret, path).toBe(ErrorCode.OPERATOR_FORBIDDEN);
    }
    expect((await slotOf('2026-12-16', '08:15')).capacity).toBe(2);
  });

  it('random bodies to every call answer an envelope, never 5xx', async () => {
    let seed = 2331;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const values = (): unknown[] => [
      null,
      -1,
      0,
      1.5,
      2 ** 40,
      '',
      '中文',
      'x'.repeat(300),
      [],
      {},
      [{ start: '08:00', end: '07:00' }],
      true,
      '2026-12-22',
      '12:00',
    ];
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
    const paths = [adminSlotCalendar, adminSlotGenerate, adminSlotCapacity, adminSlotDelete, adminSlotClosureAdd, adminSlotClosureRemove].map((c) => c.path);
    const keys = ['consular_district_id', 'interview_slot_id', 'from', 'to', 'date', 'weekdays', 'times', 'capacity', 'reason'];
    for (let i = 0; i < 150; i += 1) {
      const body: Record<string, unknown> = {};
      for (const key of keys) if (random() < 0.5) body[key] = pick(values());
      if (random() < 0.3) body.consular_district_id = districtId;
      const answer = await boss.call(pick(paths), random() < 0.1 ? '{"times":' : body);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      if (answer.body.ret !== 0) expect(answer.body.msg).toMatch(CHINESE);
    }
  });
});
