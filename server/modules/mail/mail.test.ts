// Mailing paper materials through the real app (/www and /admin-api, signed)
// on SQLite or PostgreSQL: the mail list, a pickup booked with the sandbox
// courier and tracked by its pushes, self-express, the operator marking the
// parcel received (→ page_check) or items missing (the customer sends again),
// and the guards: wrong step, other enterprise, stale version, not the
// assignee, nothing sent, a booking called off when the change fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressSave } from '../../../common/contracts/address.ts';
import { adminMailGet, adminMailMissing, adminMailReceive, mailList, mailPickup, mailSelfExpress, mailTracking } from '../../../common/contracts/mail.ts';
import { adminOrderTake } from '../../../common/contracts/admin-order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { seedReceivingAddresses } from '../../db/seed/receiving-addresses.ts';
import { injectPushTransport } from '../../test-support/fixtures/courier.ts';
import type { Customer } from '../../test-support/fixtures/material.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import { reviewTestContext, type ReviewTestContext, T0 } from '../../test-support/fixtures/review.ts';

const HOUR = 3_600_000;
let ctx: ReviewTestContext;
let alice: Customer;
let bob: Customer;

type Op = Awaited<ReturnType<ReviewTestContext['t']['operator']>>;

beforeAll(async () => {
  ctx = await reviewTestContext();
  await seedReceivingAddresses(ctx.t.db, T0);
  ctx.t.app.courier.sandbox.pusher.stop();
  ctx.t.app.courier.sandbox.pusher.setTransport(injectPushTransport(ctx.t.app));
  alice = await ctx.customer();
  bob = await ctx.customer();
});
afterAll(async () => {
  await ctx?.close();
});

/** A paid order taken by `op` and passed by the review into awaiting_mail (through the lifecycle). */
async function awaitingMail(customer: Customer, op: Op): Promise<number> {
  const id = await ctx.paidOrder(customer);
  expect((await op.callContract(adminOrderTake, { user_order_id: id })).body.ret).toBe(0);
  const lifecycle = createOrderLifecycle(ctx.t.db, { now: () => ctx.t.clock.now });
  await lifecycle.change(op.principal, id, () => ({ event: 'material_review_passed', to: 'processing:awaiting_mail', detail: { test: true } }));
  return id;
}

async function bookAddress(customer: Customer): Promise<number> {
  const saved = await ctx.t.callContract(
    addressSave,
    {
      kind: 'return',
      name: '张三',
      mobile_phone: '13800138001',
      province_code: '310000',
      city_code: '310100',
      county_code: '310106',
      detail: '南京西路1788号12楼',
    },
    { token: customer.token },
  );
  expect(saved.body.ret).toBe(0);
  return saved.result!.address_id;
}

const window = () => ({ start: T0 + 3 * HOUR, end: T0 + 5 * HOUR });

describe(`mailing paper materials (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('lists the paper materials per applicant and where to send them; only the own enterprise', async () => {
    const op = await ctx.t.operator();
    const id = await awaitingMail(alice, op);
    const list = await ctx.t.callContract(mailList, { user_order_id: id }, { token: alice.token });
    expect(list.body.ret).toBe(0);
    expect(list.result!.applicants.length).toBeGreaterThan(0);
    expect(list.result!.applicants[0]!.materials.length).toBeGreaterThan(0);
    expect(list.result!.receiving_address).not.toBeNull();
    expect(list.result).toMatchObject({ can_send: true, can_check: false, shipments: [], missing: null, order: { step: 'awaiting_mail' } });
    expect((await ctx.t.callContract(mailList, { user_order_id: id }, { token: bob.token })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    const asOp = await op.callContract(adminMailGet, { user_order_id: id });
    expect(asOp.result).toMatchObject({ can_send: true, can_check: false });
  });

  it('books a pickup; the sandbox pushes its events; the operator marks it received → page_check', async () => {
    const op = await ctx.t.operator();
    const id = await awaitingMail(alice, op);
    const addressId = await bookAddress(alice);
    const version = (await ctx.order(id)).version;

    // Guards first: stale version, another enterprise, an address of another enterprise.
    expect(
      (
        await ctx.t.callContract(
          mailPickup,
          { user_order_id: id, version: version - 1, address_id: addressId, pickup_window: window() },
          { token: alice.token },
        )
      ).body.ret,
    ).toBe(ErrorCode.MAIL_ORDER_STALE);
    expect(
      (await ctx.t.callContract(mailPickup, { user_order_id: id, version, address_id: addressId, pickup_window: window() }, { token: bob.token })).body.ret,
    ).toBe(ErrorCode.ORDER_NOT_FOUND);
    const bobsAddress = await bookAddress(bob);
    expect(
      (await ctx.t.callContract(mailPickup, { user_order_id: id, version, address_id: bobsAddress, pickup_window: window() }, { token: alice.token })).body.ret,
    ).toBe(ErrorCode.MAIL_ADDRESS_NOT_FOUND);
    // Nothing sent yet: the operator cannot mark it received.
    expect((await op.callContract(adminMailReceive, { user_order_id: id, version })).body.ret).toBe(ErrorCode.MAIL_NOT_SENT);

    const booked = await ctx.t.callContract(mailPickup, { user_order_id: id, version, address_id: addressId, pickup_window: window() }, { token: alice.token });
    expect(booked.body.ret).toBe(0);
    expect(booked.result!.shipment).toMatchObject({ arrangement: 'pickup', status: 'booked', courier_company: 'SF', sender: { county_name: '静安区' } });
    expect(booked.result!.shipment.waybill_no).toMatch(/^SF\d{13}$/);
    expect(booked.result!.version).toBe(version + 1);
    // Sent once: a second send is refused until the operator asks again.
    expect(
      (
        await ctx.t.callContract(
          mailSelfExpress,
          { user_order_id: id, version: version + 1, courier_company: 'SF', waybill_no: 'SF1234567890123' },
          { token: alice.token },
        )
      ).body.ret,
    ).toBe(ErrorCode.MAIL_ALREADY_SENT);
    // The assignee is told the parcel left.
    const notices = await ctx.t.db.selectFrom('notice').select(['kind', 'recipient_kind']).where('user_order_id', '=', id).execute();
    expect(notices).toContainEqual({ kind: 'mail_send', recipient_kind: 'operator' });

    // The sandbox pushes every event due by then (4 s apart by default): picked up … delivered.
    ctx.t.clock.now = T0 + 10 * 60_000;
    await ctx.t.app.courier.sandbox.pusher.runDue();
    const tracked = await ctx.t.callContract(mailTracking, { user_order_id: id }, { token: alice.token });
    expect(tracked.body.ret).toBe(0);
    expect(tracked.result!.shipments[0]!.routes.length).toBeGreaterThan(1);

    const bench = await op.callContract(adminMailGet, { user_order_id: id });
    expect(bench.result!.can_check).toBe(true);
    const current = bench.result!.order.version;
    // Another operator (not the assignee) is refused; a stale version too.
    const other = await ctx.t.operator();
    expect((await other.callContract(adminMailReceive, { user_order_id: id, version: current })).body.ret).toBe(ErrorCode.REVIEW_NOT_ASSIGNEE);
    expect((await op.callContract(adminMailReceive, { user_order_id: id, version: current - 1 })).body.ret).toBe(ErrorCode.MAIL_ORDER_STALE);
    const received = await op.callContract(adminMailReceive, { user_order_id: id, version: current });
    expect(received.result).toMatchObject({ step: 'page_check', version: current + 1 });
    expect(await ctx.order(id)).toMatchObject({ status: 'processing', step: 'page_check' });
    const shipment = (await ctx.t.callContract(mailList, { user_order_id: id }, { token: alice.token })).result!.shipments[0]!;
    expect(shipment.status).toBe('delivered');
    const told = await ctx.t.db
      .selectFrom('notice')
      .select(['kind', 'recipient_kind', 'link'])
      .where('user_order_id', '=', id)
      .where('kind', '=', 'mail_receive')
      .execute();
    expect(told).toEqual([{ kind: 'mail_receive', recipient_kind: 'customer', link: `/order/order-detail/${id}` }]);
    // Wrong step now: neither side can act.
    expect((await op.callContract(adminMailReceive, { user_order_id: id, version: current + 1 })).body.ret).toBe(ErrorCode.ORDER_STATE_INVALID);
    expect(
      (
        await ctx.t.callContract(
          mailSelfExpress,
          { user_order_id: id, version: current + 1, courier_company: 'SF', waybill_no: 'SF1234567890123' },
          { token: alice.token },
        )
      ).body.ret,
    ).toBe(ErrorCode.ORDER_STATE_INVALID);
  });

  it('self-express; items missing asks the customer again with the note; then received', async () => {
    ctx.t.clock.now = T0;
    const op = await ctx.t.operator();
    const id = await awaitingMail(alice, op);
    let version = (await ctx.order(id)).version;
    expect(
      (await ctx.t.callContract(mailSelfExpress, { user_order_id: id, version, courier_company: 'SF', waybill_no: '12345' }, { token: alice.token })).body.ret,
    ).toBe(ErrorCode.COURIER_WAYBILL_INVALID);
    const sent = await ctx.t.callContract(
      mailSelfExpress,
      { user_order_id: id, version, courier_company: 'ZTO', waybill_no: '7312 3456 7890' },
      { token: alice.token },
    );
    expect(sent.result!.shipment).toMatchObject({ arrangement: 'self', courier_company_name: '中通快递', waybill_no: '731234567890', status: 'picked_up' });
    version = sent.result!.version;

    expect((await op.callContract(adminMailMissing, { user_order_id: id, version, note: '  ' })).body.ret).toBe(ErrorCode.MAIL_NOTE_REQUIRED);
    const missing = await op.callContract(adminMailMissing, { user_order_id: id, version, note: '缺少在职证明原件' });
    expect(missing.result).toMatchObject({ step: 'awaiting_mail', version: version + 1 });
    const list = (await ctx.t.callContract(mailList, { user_order_id: id }, { token: alice.token })).result!;
    expect(list).toMatchObject({ can_send: true, missing: { note: '缺少在职证明原件' } });
    expect(list.shipments[0]!.status).toBe('delivered');
    const asked = await ctx.t.db.selectFrom('notice').select(['kind', 'link']).where('user_order_id', '=', id).where('kind', '=', 'mail_missing').execute();
    expect(asked).toEqual([{ kind: 'mail_missing', link: `/order/order-mail-list/${id}` }]);

    const again = await ctx.t.callContract(
      mailSelfExpress,
      { user_order_id: id, version: version + 1, courier_company: 'OTHER', courier_company_name: '同城闪送', waybill_no: 'SS20261201001' },
      { token: alice.token },
    );
    expect(again.body.ret).toBe(0);
    const after = (await ctx.t.callContract(mailList, { user_order_id: id }, { token: alice.token })).result!;
    expect(after).toMatchObject({ can_send: false, missing: null });
    expect(after.shipments).toHaveLength(2);
    const received = await op.callContract(adminMailReceive, { user_order_id: id, version: again.result!.version });
    expect(received.result).toMatchObject({ step: 'page_check' });
  });

  it('refuses in another step and calls a booking off when the change loses', async () => {
    ctx.t.clock.now = T0;
    const op = await ctx.t.operator();
    const id = await ctx.paidOrder(alice);
    const addressId = await bookAddress(alice);
    const version = (await ctx.order(id)).version;
    expect(
      (await ctx.t.callContract(mailPickup, { user_order_id: id, version, address_id: addressId, pickup_window: window() }, { token: alice.token })).body.ret,
    ).toBe(ErrorCode.ORDER_STATE_INVALID);
    expect((await op.callContract(adminMailMissing, { user_order_id: id, version, note: '缺件' })).body.ret).toBe(ErrorCode.ORDER_STATE_INVALID);
    expect((await ctx.t.callContract(mailList, { user_order_id: id }, { token: alice.token })).result).toMatchObject({ can_send: false });

    // The order moves on between the booking and the storing: the booking is called off, nothing is stored.
    const id2 = await awaitingMail(alice, op);
    const v2 = (await ctx.order(id2)).version;
    const sandbox = ctx.t.app.courier.sandbox;
    const realCreate = sandbox.provider.createWaybill.bind(sandbox.provider);
    let waybill = '';
    sandbox.provider.createWaybill = async (request) => {
      const created = await realCreate(request);
      waybill = created.waybill_no;
      await ctx.t.db
        .updateTable('user_order')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('user_order_id', '=', id2)
        .execute();
      return created;
    };
    try {
      const lost = await ctx.t.callContract(
        mailPickup,
        { user_order_id: id2, version: v2, address_id: addressId, pickup_window: window() },
        { token: alice.token },
      );
      expect(lost.body.ret).toBe(ErrorCode.MAIL_ORDER_STALE);
    } finally {
      sandbox.provider.createWaybill = realCreate;
    }
    expect(await ctx.t.db.selectFrom('shipment').select('shipment_id').where('user_order_id', '=', id2).execute()).toEqual([]);
    const ledger = await sandbox.ledger.find(waybill);
    expect(ledger?.cancelled_at).not.toBeNull();
  });
});
