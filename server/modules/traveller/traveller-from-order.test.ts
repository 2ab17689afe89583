// The create-order page's "保存为常用出行人" / "更新常用出行人" and the passport
// expiry on the order (issue 28), through the signed API on SQLite or
// PostgreSQL (TEST_DATABASE_URL): the order keeps each applicant's passport
// expiry (checked: a real date, not before departure), the detail warns when
// it is short of the trip's end (departure + the visa's stay) + 6 months, and the same user action then saves the
// ticked applicants with traveller_save — by role (经办人 yes, 财务 no) and
// only within the caller's enterprise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetailGet } from '../../../common/contracts/order.ts';
import { travellerList, travellerSave } from '../../../common/contracts/traveller.ts';
import { ERROR_CATALOGUE, ErrorCode } from '../../../common/error-codes.ts';
import { PASSPORT_SHORT_VALIDITY_TEXT, passportNeededUntil } from '../../../common/passport.ts';
import { type Customer, DEPARTURE, materialTestContext, type MaterialTestContext, newCustomer } from '../../test-support/fixtures/material.ts';

let ctx: MaterialTestContext;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  ctx = await materialTestContext();
  alice = await newCustomer(ctx.t);
  bob = await newCustomer(ctx.t);
});
afterAll(async () => {
  await ctx?.close();
});

const ZHANG = { name: '张三', identity_id: 0, mobile_phone: '13800138001', passport_no: 'e12345678' };
const LI = { name: '李四', identity_id: 0, mobile_phone: '13800138002' };

function create(token: string, applicants: Array<Record<string, unknown>>) {
  return ctx.t.call(
    '/www/order/order_create',
    { visa_product_id: ctx.products.withoutPhoto.visa_product_id, departure_date: DEPARTURE, applicants },
    { token },
  );
}

async function detail(token: string, userOrderId: number) {
  const answer = await ctx.t.callContract(orderDetailGet, { user_order_id: userOrderId }, { token });
  expect(answer.body.ret).toBe(0);
  return answer.result!;
}

async function orderCount(): Promise<number> {
  const row = await ctx.t.db
    .selectFrom('user_order')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe(`passport expiry on the order and saving travellers from it (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('keeps each applicant’s passport expiry and warns when it runs out less than six months after the trip (departure + the visa’s stay)', async () => {
    const product = ctx.products.withoutPhoto;
    expect(product.stay_days).toBe(30);
    // The trip ends on 2027-01-26 (departure 2026-12-28, a 30-day stay, both days counted).
    const needed = passportNeededUntil({ departure: DEPARTURE, stayDays: product.stay_days });
    expect(needed).toBe('2027-07-26');
    const created = await create(alice.token, [
      // Six months after departure is not enough: the stay counts too.
      { ...ZHANG, passport_expiry: '2027-06-28' },
      { ...LI, passport_expiry: needed },
      { name: '王五', identity_id: 3, mobile_phone: '13800138003' },
    ]);
    expect(created.body.ret).toBe(0);
    const userOrderId = created.body.body.user_order_id;
    const warning =
      '护照有效期不足行程结束后6个月，可能被拒签，请尽快更换护照（护照有效期至 2027-06-28；行程按出发日期 2026-12-28 加签证停留 30 天计至 2027-01-26，护照需有效至 2027-07-26）';
    const expected = [
      ['张三', 'E12345678', '2027-06-28', warning],
      ['李四', null, '2027-07-26', null],
      ['王五', null, null, null],
    ];
    const order = await detail(alice.token, userOrderId);
    expect(order.applicants.map((a) => [a.name, a.passport_no, a.passport_expiry, a.passport_warning])).toEqual(expected);
    expect(warning.startsWith(PASSPORT_SHORT_VALIDITY_TEXT)).toBe(true);

    // The order keeps the stay it was placed with (migration 057): a product edited later changes no warning.
    const stay = await ctx.t.db.selectFrom('user_order').select('stay_days').where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow();
    expect(stay.stay_days).toBe(30);
    await ctx.t.db.updateTable('visa_product').set({ stay_days: 180 }).where('visa_product_id', '=', product.visa_product_id).execute();
    try {
      const later = await detail(alice.token, userOrderId);
      expect(later.applicants.map((a) => [a.name, a.passport_no, a.passport_expiry, a.passport_warning])).toEqual(expected);
    } finally {
      await ctx.t.db.updateTable('visa_product').set({ stay_days: 30 }).where('visa_product_id', '=', product.visa_product_id).execute();
    }
  });

  it('refuses an expiry that is not a real date, or before departure, naming the applicant; nothing is created', async () => {
    const before = await orderCount();
    const cases: Array<[string, number, string]> = [
      ['2027-02-30', ErrorCode.ORDER_APPLICANT_PASSPORT_EXPIRY_INVALID, '第2位申请人：请输入正确的护照有效期'],
      ['28/06/2027', ErrorCode.ORDER_APPLICANT_PASSPORT_EXPIRY_INVALID, '第2位申请人：请输入正确的护照有效期'],
      ['2026-12-27', ErrorCode.ORDER_APPLICANT_PASSPORT_EXPIRED, '第2位申请人：护照在出发日期前已到期，请换发护照后再办理'],
    ];
    for (const [expiry, ret, msg] of cases) {
      const answer = await create(alice.token, [ZHANG, { ...LI, passport_expiry: expiry }]);
      expect(answer.body, expiry).toEqual({ ret, msg, body: null });
    }
    // One applicant: the catalogue's own words, no prefix.
    const alone = await create(alice.token, [{ ...LI, passport_expiry: '2026-01-01' }]);
    expect(alone.body.msg).toBe(ERROR_CATALOGUE[ErrorCode.ORDER_APPLICANT_PASSPORT_EXPIRED].msg);
    // Expiring on the departure day itself is allowed (and warned about).
    expect((await create(alice.token, [{ ...LI, passport_expiry: DEPARTURE }])).body.ret).toBe(0);
    expect(await orderCount()).toBe(before + 1);
  });

  it('saves a new applicant as a traveller after the order (经办人), then updates it from a later order’s changed applicant', async () => {
    const agent = await ctx.t.loggedInColleague(alice.enterpriseId, 'agent');
    const scanned = { ...ZHANG, passport_expiry: '2031-05-01' };
    expect((await create(agent.token, [scanned])).body.ret).toBe(0);
    // What the page sends for the ticked applicant: the order's fields, the scan's pinyin, sex and birth date, the consent.
    const saved = await ctx.t.callContract(
      travellerSave,
      { ...scanned, pinyin: 'zhang san', sex: 'M', birth_date: '1990-05-01', email: null, consent: true },
      { token: agent.token },
    );
    expect(saved.body.ret).toBe(0);
    expect(saved.result).toMatchObject({
      name: '张三',
      pinyin: 'ZHANG SAN',
      passport_no: 'E12345678',
      passport_expiry: '2031-05-01',
      consent_at: ctx.t.clock.now,
    });
    const travellerId = saved.result!.traveller_id;
    const row = await ctx.t.db
      .selectFrom('traveller')
      .select(['consent_account_id', 'enterprise_id'])
      .where('traveller_id', '=', travellerId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ consent_account_id: agent.accountId, enterprise_id: alice.enterpriseId });

    // Saving the same person again as new is refused (the page offers 更新 instead).
    const twin = await ctx.t.call(
      travellerSave.path,
      { ...scanned, pinyin: 'ZHANG SAN', sex: 'M', birth_date: '1990-05-01', consent: true },
      { token: alice.token },
    );
    expect(twin.body.ret).toBe(ErrorCode.TRAVELLER_DUPLICATE);

    // Picked on a later order with a renewed passport: the update names the traveller.
    const renewed = { ...ZHANG, passport_no: 'EA7654321', passport_expiry: '2036-02-01' };
    const order = await create(alice.token, [renewed]);
    expect(order.body.ret).toBe(0);
    expect((await detail(alice.token, order.body.body.user_order_id)).applicants[0]!.passport_warning).toBeNull();
    const updated = await ctx.t.callContract(
      travellerSave,
      { ...renewed, traveller_id: travellerId, pinyin: 'ZHANG SAN', sex: 'M', birth_date: '1990-05-01', consent: true },
      { token: alice.token },
    );
    expect(updated.body.ret).toBe(0);
    const list = (await ctx.t.callContract(travellerList, {}, { token: agent.token })).result!.list;
    expect(list.map((t) => [t.traveller_id, t.passport_no, t.passport_expiry])).toEqual([[travellerId, 'EA7654321', '2036-02-01']]);
  });

  it('refuses a 财务 both the order and the save (2501), and another enterprise’s traveller exactly like a missing one', async () => {
    const finance = await ctx.t.loggedInColleague(alice.enterpriseId, 'finance');
    const payload = { ...LI, pinyin: 'LI SI', sex: 'F', birth_date: '1992-03-04', passport_expiry: '2031-01-01', consent: true };
    expect((await create(finance.token, [LI])).body.ret).toBe(ErrorCode.TEAM_ROLE_FORBIDDEN);
    expect((await ctx.t.call(travellerSave.path, payload, { token: finance.token })).body.ret).toBe(ErrorCode.TEAM_ROLE_FORBIDDEN);

    const [zhang] = (await ctx.t.callContract(travellerList, {}, { token: alice.token })).result!.list;
    const foreign = await ctx.t.call(travellerSave.path, { ...payload, traveller_id: zhang!.traveller_id }, { token: bob.token });
    const missing = await ctx.t.call(travellerSave.path, { ...payload, traveller_id: 99_999_999 }, { token: bob.token });
    expect(foreign.body).toEqual({ ret: ErrorCode.TRAVELLER_NOT_FOUND, msg: ERROR_CATALOGUE[ErrorCode.TRAVELLER_NOT_FOUND].msg, body: null });
    expect(missing.body).toEqual(foreign.body);
    // Nothing changed for Alice, nothing saved for Bob or by the 财务.
    const after = (await ctx.t.callContract(travellerList, {}, { token: alice.token })).result!.list;
    expect(after.map((t) => t.name)).toEqual(['张三']);
    expect(after[0]!.passport_no).toBe('EA7654321');
    expect((await ctx.t.callContract(travellerList, {}, { token: bob.token })).result!.list).toEqual([]);
  });
});
