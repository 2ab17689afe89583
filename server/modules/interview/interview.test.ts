// Interview slots through the real calls, on SQLite or PostgreSQL
// (TEST_DATABASE_URL): the consulate's free times, the guards of choosing,
// moving a booking, giving places back, and the last places under a real
// race of twenty customers.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InterviewSlotListResult } from '../../../common/contracts/interview.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { INTERVIEW_TIMES } from '../../../common/interview.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { customer as principal } from '../../platform/principal.ts';
import { createOrderService } from '../order/order.service.ts';
import { applicantInterviews, applicantsWithoutInterview } from './order-interview.ts';

/** Tuesday 1 December 2026, 10:00 in China. */
const T0 = Date.parse('2026-12-01T02:00:00Z');

let t: TestApp;
let products: { usOwnDistrict: { id: number; district: number }; usNoDistrict: number; usDistricts: number[]; noInterview: number };

interface Customer {
  token: string;
  accountId: number;
  enterpriseId: number;
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.now = T0;
  // The United States (its national days count) with five consulates; interview products with and without their own.
  const us = {
    iso_code: 'US',
    name: '美国',
    name_en: 'United States',
    continent_id: 2,
    districts: ['北京', '上海', '广州', '沈阳', '武汉'].map((city) => ({ name: `${city}领区`, city })),
  };
  const own = await t.insertProduct({ country: us, district: 'own', interview: true });
  const none = await t.insertProduct({ country: us, district: 'all', interview: true });
  const noInterview = await t.insertProduct({ interview: false });
  products = {
    usOwnDistrict: { id: own.visa_product_id, district: own.consular_district_id! },
    usNoDistrict: none.visa_product_id,
    usDistricts: own.districts.map((d) => d.consular_district_id),
    noInterview: noInterview.visa_product_id,
  };
});
afterAll(async () => {
  await t?.close();
});

async function customer(): Promise<Customer> {
  const created = await t.createAccount();
  return { token: await t.login(created.account, created.password), accountId: created.accountId, enterpriseId: created.enterpriseId };
}

async function createOrder(
  who: Customer,
  options: { product?: number; district?: number | null; departure?: string; applicants?: number } = {},
): Promise<number> {
  const count = options.applicants ?? 2;
  const result = await t.call(
    '/www/order/order_create',
    {
      visa_product_id: options.product ?? products.usOwnDistrict.id,
      consular_district_id: options.district ?? null,
      departure_date: options.departure ?? '2027-01-10',
      applicants: Array.from({ length: count }, (_, i) => ({ name: `面签人${i + 1}`, identity_id: 0, mobile_phone: `1390013${String(9000 + i)}` })),
    },
    { token: who.token },
  );
  expect(result.body.ret, result.body.msg).toBe(0);
  return result.body.body.user_order_id as number;
}

async function list(who: Customer, userOrderId: number) {
  return t.call('/www/order/interview_slot_list', { user_order_id: userOrderId }, { token: who.token });
}

async function listOk(who: Customer, userOrderId: number): Promise<InterviewSlotListResult> {
  const result = await list(who, userOrderId);
  expect(result.body.ret, result.body.msg).toBe(0);
  return result.body.body as InterviewSlotListResult;
}

function choose(who: Customer, userOrderId: number, choices: Array<{ applicant_id: number; interview_slot_id: number }>) {
  return t.call('/www/order/interview_time_choose', { user_order_id: userOrderId, choices }, { token: who.token });
}

async function slot(id: number) {
  return t.db.selectFrom('interview_slot').selectAll().where('interview_slot_id', '=', id).executeTakeFirstOrThrow();
}

/** Every slot's booked equals the number of applicants holding it. */
async function expectCountersConsistent() {
  const rows = await t.db
    .selectFrom('interview_slot')
    .leftJoin('order_applicant', 'order_applicant.interview_slot_id', 'interview_slot.interview_slot_id')
    .select((eb) => ['interview_slot.interview_slot_id', 'interview_slot.booked', eb.fn.count<number>('order_applicant.applicant_id').as('holders')])
    .groupBy(['interview_slot.interview_slot_id', 'interview_slot.booked'])
    .execute();
  for (const row of rows) expect(Number(row.holders), `slot ${row.interview_slot_id}`).toBe(row.booked);
}

describe(`interview slots (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('lists the consulate and its open days up to the day before departure, without weekends, holidays and national days', async () => {
    t.clock.now = T0;
    const alice = await customer();
    const id = await createOrder(alice);
    const answer = await listOk(alice, id);
    const district = await t.db
      .selectFrom('consular_district')
      .selectAll()
      .where('consular_district_id', '=', products.usOwnDistrict.district)
      .executeTakeFirstOrThrow();
    expect(answer.consulate).toEqual({
      consular_district_id: district.consular_district_id,
      district_name: district.name,
      consulate_name: district.consulate_name,
      city: district.city,
      address: district.address,
    });
    expect(answer.allowed_events).toContain('interview_choose');
    expect(answer.window).toEqual({ from: '2026-12-02', to: '2027-01-09' });
    const dates = answer.dates.map((d) => d.date);
    expect(dates[0]).toBe('2026-12-02');
    expect(dates.at(-1)).toBe('2027-01-08');
    // Weekends, the US consulate's Christmas (a Friday) and New Year 2027 (computed: chinese-days has no 2027 yet).
    for (const closed of ['2026-12-05', '2026-12-06', '2026-12-25', '2027-01-01']) expect(dates).not.toContain(closed);
    expect(dates).toContain('2026-12-24');
    expect(answer.dates.find((d) => d.date === '2026-12-24')).toMatchObject({ weekday: '周四', provisional: false });
    expect(answer.dates.find((d) => d.date === '2027-01-04')).toMatchObject({ weekday: '周一', provisional: true });
    expect(answer.notice).toContain('2027年的节假日安排尚未公布');
    const day = answer.dates[0]!;
    expect(day.slots.map((s) => `${s.start_time}-${s.end_time}`)).toEqual(INTERVIEW_TIMES.map((time) => `${time.start}-${time.end}`));
    for (const s of day.slots) {
      expect(s.capacity).toBeGreaterThanOrEqual(3);
      expect(s.capacity).toBeLessThanOrEqual(6);
      expect(s).toMatchObject({ remaining: s.capacity, full: false });
    }
    expect(answer.applicants.map((a) => [a.name, a.choice])).toEqual([
      ['面签人1', null],
      ['面签人2', null],
    ]);
    // Generated once: listing again adds nothing.
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('interview_slot')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await listOk(alice, id);
    expect(await count()).toBe(before);
    expect(before).toBe(answer.dates.length * INTERVIEW_TIMES.length);
  });

  it('does not offer Spring Festival 2027 (computed) and marks the fallback year provisional', async () => {
    t.clock.now = Date.parse('2027-01-20T02:00:00Z');
    try {
      const bob = await customer();
      const id = await createOrder(bob, { departure: '2027-02-20' });
      const answer = await listOk(bob, id);
      const dates = answer.dates.map((d) => d.date);
      for (const closed of ['2027-02-05', '2027-02-08']) expect(dates).not.toContain(closed);
      for (const open of ['2027-02-04', '2027-02-09']) expect(dates).toContain(open);
      expect(answer.dates.every((d) => d.provisional)).toBe(true);
    } finally {
      t.clock.now = T0;
    }
  });

  it('books two applicants, moves a booking when chosen again, and writes the audit log', async () => {
    const carol = await customer();
    const id = await createOrder(carol);
    const answer = await listOk(carol, id);
    const [first, second] = answer.applicants;
    const [a, b] = answer.dates[1]!.slots;
    const c = answer.dates[2]!.slots[0]!;
    const version = async () => (await t.db.selectFrom('user_order').select('version').where('user_order_id', '=', id).executeTakeFirstOrThrow()).version;
    const v0 = await version();

    const chosen = await choose(carol, id, [
      { applicant_id: first!.applicant_id, interview_slot_id: a!.interview_slot_id },
      { applicant_id: second!.applicant_id, interview_slot_id: a!.interview_slot_id },
    ]);
    expect(chosen.body.ret, chosen.body.msg).toBe(0);
    expect(chosen.body.body.applicants[0]).toMatchObject({
      applicant_id: first!.applicant_id,
      slot_date: answer.dates[1]!.date,
      start_time: '09:00',
      end_time: '09:30',
    });
    expect((await slot(a!.interview_slot_id)).booked).toBe(2);
    expect(await version()).toBe(v0 + 1);

    // The first moves to b, the second to another day: a gives both places back.
    const moved = await choose(carol, id, [
      { applicant_id: first!.applicant_id, interview_slot_id: b!.interview_slot_id },
      { applicant_id: second!.applicant_id, interview_slot_id: c.interview_slot_id },
    ]);
    expect(moved.body.ret, moved.body.msg).toBe(0);
    expect([(await slot(a!.interview_slot_id)).booked, (await slot(b!.interview_slot_id)).booked, (await slot(c.interview_slot_id)).booked]).toEqual([0, 1, 1]);

    const again = await listOk(carol, id);
    expect(again.applicants.map((x) => x.choice)).toEqual([
      { interview_slot_id: b!.interview_slot_id, slot_date: answer.dates[1]!.date, start_time: '09:30', end_time: '10:00', bookable: true },
      { interview_slot_id: c.interview_slot_id, slot_date: answer.dates[2]!.date, start_time: '09:00', end_time: '09:30', bookable: true },
    ]);
    expect(again.dates[1]!.slots[1]).toMatchObject({ remaining: b!.capacity - 1 });

    const events = await t.db
      .selectFrom('order_event')
      .selectAll()
      .where('user_order_id', '=', id)
      .where('event', '=', 'interview_choose')
      .orderBy('event_id')
      .execute();
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ actor: 'customer', actor_id: carol.accountId, from_status: 'draft', to_status: 'draft' });
    expect(JSON.parse(events[1]!.detail!).choices).toEqual([
      { applicant_id: first!.applicant_id, interview_slot_id: b!.interview_slot_id, slot_date: answer.dates[1]!.date, start_time: '09:30' },
      { applicant_id: second!.applicant_id, interview_slot_id: c.interview_slot_id, slot_date: answer.dates[2]!.date, start_time: '09:00' },
    ]);

    // What the order detail and the confirm step read.
    const interviews = await applicantInterviews(t.db, [id]);
    expect(interviews.get(first!.applicant_id)).toMatchObject({
      interview_slot_id: b!.interview_slot_id,
      start_time: '09:30',
      consulate_name: answer.consulate.consulate_name,
    });
    expect(await applicantsWithoutInterview(t.db, id)).toEqual([]);

    // Cancelling (the order module) gives the places back in its own transaction.
    await createOrderService(t.db, { now: () => t.clock.now }).cancel(principal(carol.accountId, carol.enterpriseId), id);
    const cancel = await t.db
      .selectFrom('order_event')
      .select('detail')
      .where('user_order_id', '=', id)
      .where('event', '=', 'cancel')
      .executeTakeFirstOrThrow();
    const freed = JSON.parse(cancel.detail!).interview_places_released;
    expect(freed).toBe(2);
    expect([(await slot(b!.interview_slot_id)).booked, (await slot(c.interview_slot_id)).booked]).toEqual([0, 0]);
    expect((await applicantsWithoutInterview(t.db, id)).map((x) => x.name)).toEqual(['面签人1', '面签人2']);
    await expectCountersConsistent();
  });

  it('keeps a full slot for the applicant who holds it, and is all or nothing when a time is full', async () => {
    const dave = await customer();
    const id = await createOrder(dave);
    const answer = await listOk(dave, id);
    const [first, second] = answer.applicants;
    const free = answer.dates[3]!.slots[0]!;
    const tight = answer.dates[3]!.slots[1]!;
    // One place left on `tight`.
    await t.db.updateTable('interview_slot').set({ capacity: 1, booked: 0 }).where('interview_slot_id', '=', tight.interview_slot_id).execute();
    expect(
      (
        await choose(dave, id, [
          { applicant_id: first!.applicant_id, interview_slot_id: tight.interview_slot_id },
          { applicant_id: second!.applicant_id, interview_slot_id: free.interview_slot_id },
        ])
      ).body.ret,
    ).toBe(0);
    // Choosing the same (now full) time again keeps it.
    expect(
      (
        await choose(dave, id, [
          { applicant_id: first!.applicant_id, interview_slot_id: tight.interview_slot_id },
          { applicant_id: second!.applicant_id, interview_slot_id: free.interview_slot_id },
        ])
      ).body.ret,
    ).toBe(0);
    expect((await listOk(dave, id)).dates[3]!.slots[1]).toMatchObject({ remaining: 0, full: true });

    // Both on the full time: refused, and nothing changed (the second keeps `free`).
    const refused = await choose(dave, id, [
      { applicant_id: first!.applicant_id, interview_slot_id: tight.interview_slot_id },
      { applicant_id: second!.applicant_id, interview_slot_id: tight.interview_slot_id },
    ]);
    expect(refused.status).toBe(200);
    expect(refused.body.ret).toBe(ErrorCode.INTERVIEW_SLOT_FULL);
    expect(refused.body.msg).toMatch(/已约满，请重新选择$/);
    expect([(await slot(tight.interview_slot_id)).booked, (await slot(free.interview_slot_id)).booked]).toEqual([1, 1]);
    const held = await t.db.selectFrom('order_applicant').select('interview_slot_id').where('user_order_id', '=', id).orderBy('sort').execute();
    expect(held.map((h) => h.interview_slot_id)).toEqual([tight.interview_slot_id, free.interview_slot_id]);

    // Swapping frees and takes in one go: the place the first gives back goes to the second.
    const swapped = await choose(dave, id, [
      { applicant_id: first!.applicant_id, interview_slot_id: free.interview_slot_id },
      { applicant_id: second!.applicant_id, interview_slot_id: tight.interview_slot_id },
    ]);
    expect(swapped.body.ret, swapped.body.msg).toBe(0);
    expect([(await slot(tight.interview_slot_id)).booked, (await slot(free.interview_slot_id)).booked]).toEqual([1, 1]);
    await expectCountersConsistent();
  });

  it('maps a CHECK violation of the slot counter to a clear error code', async () => {
    const { isCheckViolation } = await import('./interview.service.ts');
    const row = await t.db.selectFrom('interview_slot').select(['interview_slot_id', 'capacity']).limit(1).executeTakeFirstOrThrow();
    const error = await t.db
      .updateTable('interview_slot')
      .set({ booked: sql`capacity + 1` })
      .where('interview_slot_id', '=', row.interview_slot_id)
      .execute()
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    expect(isCheckViolation(error)).toBe(true);
    expect(isCheckViolation(new Error('other'))).toBe(false);
  });

  it('guards: owner, interview needed, district, draft, applicants, slot district, window and calendar', async () => {
    const erin = await customer();
    const mallory = await customer();
    const id = await createOrder(erin);
    const answer = await listOk(erin, id);
    const [first, second] = answer.applicants;
    const good = answer.dates[0]!.slots[0]!.interview_slot_id;
    const both = (slotId: number) => [
      { applicant_id: first!.applicant_id, interview_slot_id: slotId },
      { applicant_id: second!.applicant_id, interview_slot_id: good },
    ];

    // Another enterprise's order answers exactly like a missing one.
    const foreignList = await list(mallory, id);
    const missingList = await list(mallory, 99_999_999);
    expect(foreignList.body).toEqual(missingList.body);
    expect(foreignList.body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    expect((await choose(mallory, id, both(good))).body).toEqual((await choose(mallory, 99_999_999, both(good))).body);
    expect((await choose(mallory, id, both(good))).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);

    // No session.
    expect((await t.call('/www/order/interview_slot_list', { user_order_id: id })).body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
    // Malformed payloads.
    expect((await t.call('/www/order/interview_time_choose', { user_order_id: id, choices: 'all' }, { token: erin.token })).body.ret).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    expect((await t.call('/www/order/interview_time_choose', { user_order_id: id, choices: [] }, { token: erin.token })).body.ret).toBe(
      ErrorCode.INVALID_PARAMS,
    );

    // Applicants: all of them, once each, only this order's.
    expect((await choose(erin, id, [{ applicant_id: first!.applicant_id, interview_slot_id: good }])).body).toMatchObject({
      ret: ErrorCode.INTERVIEW_CHOICES_INCOMPLETE,
      msg: '请为面签人2选择面试时间',
    });
    expect((await choose(erin, id, [...both(good), { applicant_id: first!.applicant_id, interview_slot_id: good }])).body.ret).toBe(
      ErrorCode.INTERVIEW_CHOICES_INCOMPLETE,
    );
    const otherOrder = await createOrder(erin, { applicants: 1 });
    const stranger = (await listOk(erin, otherOrder)).applicants[0]!.applicant_id;
    expect((await choose(erin, id, [...both(good), { applicant_id: stranger, interview_slot_id: good }])).body.ret).toBe(
      ErrorCode.INTERVIEW_APPLICANT_NOT_FOUND,
    );

    // Slots: missing, or of another district.
    expect((await choose(erin, id, both(99_999_999))).body.ret).toBe(ErrorCode.INTERVIEW_SLOT_NOT_FOUND);
    const otherDistrict = products.usDistricts.find((d) => d !== products.usOwnDistrict.district)!;
    const elsewhere = await t.db
      .insertInto('interview_slot')
      .values({ consular_district_id: otherDistrict, slot_date: answer.dates[0]!.date, start_time: '09:00', end_time: '09:30', capacity: 5, booked: 0 })
      .onConflict((oc) => oc.columns(['consular_district_id', 'slot_date', 'start_time']).doNothing())
      .execute()
      .then(() =>
        t.db
          .selectFrom('interview_slot')
          .select('interview_slot_id')
          .where('consular_district_id', '=', otherDistrict)
          .where('slot_date', '=', answer.dates[0]!.date)
          .where('start_time', '=', '09:00')
          .executeTakeFirstOrThrow(),
      );
    expect((await choose(erin, id, both(elsewhere.interview_slot_id))).body.ret).toBe(ErrorCode.INTERVIEW_SLOT_NOT_FOUND);

    // Outside the window: a slot of the right district on the departure date itself, or today.
    const insertSlot = async (date: string) => {
      await t.db
        .insertInto('interview_slot')
        .values({ consular_district_id: products.usOwnDistrict.district, slot_date: date, start_time: '09:00', end_time: '09:30', capacity: 5, booked: 0 })
        .onConflict((oc) => oc.columns(['consular_district_id', 'slot_date', 'start_time']).doNothing())
        .execute();
      return (
        await t.db
          .selectFrom('interview_slot')
          .select('interview_slot_id')
          .where('consular_district_id', '=', products.usOwnDistrict.district)
          .where('slot_date', '=', date)
          .where('start_time', '=', '09:00')
          .executeTakeFirstOrThrow()
      ).interview_slot_id;
    };
    for (const date of ['2027-01-11', '2026-12-01']) {
      expect((await choose(erin, id, both(await insertSlot(date)))).body.ret).toBe(ErrorCode.INTERVIEW_SLOT_UNAVAILABLE);
    }
    // A weekend slot (nobody generates one, but an old row might exist).
    const saturday = await choose(erin, id, both(await insertSlot('2026-12-05')));
    expect(saturday.body).toMatchObject({ ret: ErrorCode.INTERVIEW_SLOT_UNAVAILABLE, msg: '2026-12-05 领馆不办公（周末），请重新选择' });

    // The calendar changes after the slots were generated: the day disappears and cannot be chosen.
    const day = answer.dates[4]!;
    const usCountry = await t.db.selectFrom('visa_country').select('visa_country_id').where('iso_code', '=', 'US').executeTakeFirstOrThrow();
    await t.db
      .insertInto('country_national_day')
      .values({ visa_country_id: usCountry.visa_country_id, month_day: day.date.slice(5), name: '临时闭馆' })
      .execute();
    try {
      expect((await listOk(erin, id)).dates.map((d) => d.date)).not.toContain(day.date);
      expect((await choose(erin, id, both(day.slots[0]!.interview_slot_id))).body).toMatchObject({
        ret: ErrorCode.INTERVIEW_SLOT_UNAVAILABLE,
        msg: `${day.date} 领馆不办公（临时闭馆），请重新选择`,
      });
    } finally {
      await t.db
        .deleteFrom('country_national_day')
        .where('visa_country_id', '=', usCountry.visa_country_id)
        .where('month_day', '=', day.date.slice(5))
        .execute();
    }

    // Nothing of the above booked anything.
    expect(await t.db.selectFrom('order_applicant').select('interview_slot_id').where('user_order_id', '=', id).execute()).toEqual([
      { interview_slot_id: null },
      { interview_slot_id: null },
    ]);

    // Not a draft any more (confirmed): read-only.
    expect((await choose(erin, id, both(good))).body.ret).toBe(0);
    await t.db.updateTable('user_order').set({ status: 'pending_payment' }).where('user_order_id', '=', id).execute();
    expect((await choose(erin, id, both(good))).body.ret).toBe(ErrorCode.INTERVIEW_ORDER_LOCKED);
    const confirmed = await listOk(erin, id);
    expect(confirmed).toMatchObject({ dates: [] });
    expect(confirmed.allowed_events).not.toContain('interview_choose');
    expect(confirmed.applicants.every((a) => a.choice?.interview_slot_id === good)).toBe(true);

    // Cancelled.
    expect((await t.call('/www/order/order_cancel', { user_order_id: otherOrder }, { token: erin.token })).body.ret).toBe(0);
    expect((await choose(erin, otherOrder, [{ applicant_id: stranger, interview_slot_id: good }])).body.ret).toBe(ErrorCode.ORDER_ALREADY_CANCELLED);

    // A product without an interview.
    const plain = await createOrder(erin, { product: products.noInterview, applicants: 1 });
    expect((await list(erin, plain)).body.ret).toBe(ErrorCode.INTERVIEW_NOT_NEEDED);
    expect((await choose(erin, plain, [{ applicant_id: 1, interview_slot_id: good }])).body.ret).toBe(ErrorCode.INTERVIEW_NOT_NEEDED);

    // No district at all (product without its own, none chosen).
    const nowhere = await createOrder(erin, { product: products.usNoDistrict, applicants: 1 });
    expect((await list(erin, nowhere)).body).toMatchObject({ ret: ErrorCode.INTERVIEW_NO_DISTRICT, msg: '订单未选择领区，无法预约面试时间' });
    // With a district chosen on the order, that consulate is used.
    const chosenDistrict = products.usDistricts[2]!;
    const somewhere = await createOrder(erin, { product: products.usNoDistrict, district: chosenDistrict, applicants: 1 });
    expect((await listOk(erin, somewhere)).consulate.consular_district_id).toBe(chosenDistrict);
  });

  it('gives the places back when the order is cancelled or expires', async () => {
    const created = await t.createAccount();
    const henry: Customer = { token: await t.login(created.account, created.password), accountId: created.accountId, enterpriseId: created.enterpriseId };
    const cancelled = await createOrder(henry, { applicants: 1 });
    const expiring = await createOrder(henry, { applicants: 1 });
    const target = (await listOk(henry, cancelled)).dates[5]!.slots[4]!;
    const before = (await slot(target.interview_slot_id)).booked;
    for (const id of [cancelled, expiring]) {
      const applicantId = (await listOk(henry, id)).applicants[0]!.applicant_id;
      expect((await choose(henry, id, [{ applicant_id: applicantId, interview_slot_id: target.interview_slot_id }])).body.ret).toBe(0);
    }
    expect((await slot(target.interview_slot_id)).booked).toBe(before + 2);

    expect((await t.call('/www/order/order_cancel', { user_order_id: cancelled }, { token: henry.token })).body.ret).toBe(0);
    expect((await slot(target.interview_slot_id)).booked).toBe(before + 1);

    // 24 h later the unpaid order expires when it is read.
    t.clock.now = T0 + 25 * 3_600_000;
    try {
      // The session idled out meanwhile: a fresh login.
      henry.token = await t.login(created.account, created.password);
      const applicantId = (await t.db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', expiring).executeTakeFirstOrThrow())
        .applicant_id;
      expect((await choose(henry, expiring, [{ applicant_id: applicantId, interview_slot_id: target.interview_slot_id }])).body.ret).toBe(
        ErrorCode.ORDER_ALREADY_CANCELLED,
      );
      expect((await slot(target.interview_slot_id)).booked).toBe(before);
    } finally {
      t.clock.now = T0;
    }
    await expectCountersConsistent();
  });

  it('says so when no working day is left before departure', async () => {
    const frank = await customer();
    const id = await createOrder(frank, { departure: '2026-12-02', applicants: 1 });
    const answer = await listOk(frank, id);
    expect(answer).toMatchObject({ window: null, dates: [], notice: '出发日期前已没有可预约的工作日，请修改出发日期或联系客服' });
  });

  it('gives the last places of a slot to exactly as many of twenty concurrent customers as it holds', async () => {
    // Four at a time: each account costs two scrypt runs of 128 MiB.
    const customers: Customer[] = [];
    while (customers.length < 20) customers.push(...(await Promise.all([customer(), customer(), customer(), customer()])));
    const orders: number[] = [];
    for (const who of customers) orders.push(await createOrder(who, { applicants: 1, departure: '2026-12-31' }));
    const first = await listOk(customers[0]!, orders[0]!);
    const target = first.dates.at(-1)!.slots.at(-1)!;
    await t.db.updateTable('interview_slot').set({ capacity: 5, booked: 0 }).where('interview_slot_id', '=', target.interview_slot_id).execute();
    const applicantIds = await Promise.all(customers.map(async (who, i) => (await listOk(who, orders[i]!)).applicants[0]!.applicant_id));

    const results = await Promise.all(
      customers.map((who, i) => choose(who, orders[i]!, [{ applicant_id: applicantIds[i]!, interview_slot_id: target.interview_slot_id }])),
    );
    const rets = results.map((r) => r.body.ret);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(rets.filter((ret) => ret === 0)).toHaveLength(5);
    expect(rets.filter((ret) => ret === ErrorCode.INTERVIEW_SLOT_FULL)).toHaveLength(15);
    expect((await slot(target.interview_slot_id)).booked).toBe(5);
    const holders = await t.db.selectFrom('order_applicant').select('applicant_id').where('interview_slot_id', '=', target.interview_slot_id).execute();
    expect(holders).toHaveLength(5);
    // Losers wrote no event.
    const events = await t.db
      .selectFrom('order_event')
      .select('user_order_id')
      .where('event', '=', 'interview_choose')
      .where('user_order_id', 'in', orders)
      .execute();
    expect(events).toHaveLength(5);
    await expectCountersConsistent();
  }, 180_000);

  it('generates the same slots once when two requests ask for a new district at the same time', async () => {
    const grace = await customer();
    const district = products.usDistricts[3]!;
    const id = await createOrder(grace, { product: products.usNoDistrict, district, applicants: 1 });
    const answers = await Promise.all([list(grace, id), list(grace, id), list(grace, id)]);
    expect(answers.map((a) => a.body.ret)).toEqual([0, 0, 0]);
    const rows = await t.db
      .selectFrom('interview_slot')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('consular_district_id', '=', district)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe((answers[0]!.body.body as InterviewSlotListResult).dates.length * INTERVIEW_TIMES.length);
  });
});
