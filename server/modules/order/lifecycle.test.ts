// The lifecycle table and its changes, on SQLite or PostgreSQL (TEST_DATABASE_URL):
// the table covers every event and every state, the docs show it as it is,
// and a change refuses what the table refuses without writing anything.
import { readFileSync } from 'node:fs';
import * as lifecycleModule from './lifecycle.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/error-codes.ts';
import { ORDER_EVENTS, ORDER_STATUSES, ORDER_STEP_VALUES, type OrderEventName } from '../../../common/order.ts';
import { AppError } from '../../platform/errors.ts';
import { type Customer, type Operator, type Principal, SYSTEM } from '../../platform/principal.ts';
import {
  allowedEvents,
  type Change,
  createOrderLifecycle,
  eventsFrom,
  LIFECYCLE,
  LifecycleConflict,
  type OrderState,
  type Place,
  placeOf,
  refusalOf,
  ruleOf,
  SUB_LIFECYCLE,
  checkSubAllowed,
  subAllows,
  subFrom,
  subReached,
  subRefusalOf,
  subTransitions,
} from './lifecycle.ts';
import { renderLifecycleDoc } from './lifecycle-doc.ts';
import { applicant, newCustomer, type OrderTestContext, orderTestContext, T0 } from '../../test-support/fixtures/order.ts';

let ctx: OrderTestContext;
let alice: Customer;

beforeAll(async () => {
  ctx = await orderTestContext();
  alice = await newCustomer(ctx.t);
});
afterAll(async () => {
  await ctx?.close();
});

const operator: Operator = { kind: 'operator', operatorId: 7, role: 'operator' };

async function draft(): Promise<OrderState> {
  const { user_order_id } = await ctx.service.create(alice, {
    visa_product_id: ctx.products.plain.visa_product_id,
    departure_date: '2026-12-28',
    applicants: [applicant(1), applicant(2)],
  });
  return createOrderLifecycle(ctx.t.db, { now: () => ctx.t.clock.now }).current(alice, user_order_id);
}

/** One change applied in a lifecycle transaction (apply() itself is the lifecycle's own). */
function applyOne(order: OrderState, change: Change, caller: Principal = alice) {
  return createOrderLifecycle(ctx.t.db, { now: () => T0 }).transaction((tx) => tx.change(order, change, caller));
}

async function row(userOrderId: number) {
  return ctx.t.db
    .selectFrom('user_order')
    .select(['status', 'step', 'version', 'step_entered_at'])
    .where('user_order_id', '=', userOrderId)
    .executeTakeFirstOrThrow();
}

async function events(userOrderId: number) {
  return ctx.t.db.selectFrom('order_event').selectAll().where('user_order_id', '=', userOrderId).orderBy('event_id').execute();
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('the table', () => {
  it('has one rule for every event of the catalogue, and only those', () => {
    const events = LIFECYCLE.map((rule) => rule.event);
    expect(new Set(events).size).toBe(events.length);
    expect([...events].sort()).toEqual((Object.keys(ORDER_EVENTS) as OrderEventName[]).sort());
  });

  it('reaches every status and every processing step, and leaves every state but the final ones', () => {
    const places = new Set<Place>();
    const left = new Set<Place>();
    for (const rule of LIFECYCLE) {
      if (rule.to !== 'same') rule.to.forEach((place) => places.add(place));
      if (Array.isArray(rule.from) && rule.to !== 'same') rule.from.forEach((place) => left.add(place));
    }
    const all: Place[] = [
      ...(Object.keys(ORDER_STATUSES).filter((status) => status !== 'processing') as Place[]),
      ...ORDER_STEP_VALUES.map((step) => `processing:${step}` as Place),
    ];
    for (const place of all) expect(places, `${place} is never reached`).toContain(place);
    for (const place of all.filter((p) => !['completed', 'cancelled', 'refunded'].includes(p))) expect(left, `${place} is never left`).toContain(place);
  });

  it('is the diagram and table of docs/order-rules.md (npm run docs:lifecycle)', () => {
    const document = readFileSync(new URL('../../../docs/order-rules.md', import.meta.url), 'utf8');
    expect(document).toContain(renderLifecycleDoc());
  });
});

describe('what each side may do now (allowedEvents)', () => {
  const supervisor: Operator = { kind: 'operator', operatorId: 8, role: 'supervisor' };
  const catalogueEditor: Operator = { kind: 'operator', operatorId: 9, role: 'catalogue_editor' };
  const customer: Customer = { kind: 'customer', accountId: 1, enterpriseId: 1 };
  const at = T0;
  const orderAt = (place: Place, extra: Partial<OrderState> = {}): OrderState => {
    const [status, step] = place.split(':') as [OrderState['status'], OrderState['step'] | undefined];
    return { user_order_id: 1, status, step: step ?? null, version: 3, expires_at: null, departure_date: '2026-12-28', need_interview: true, ...extra };
  };

  it("a draft: the customer's ordering steps and cancel; nothing for staff, nothing of the system's", () => {
    const draftOrder = orderAt('draft', { expires_at: at + 3_600_000 });
    expect(allowedEvents(draftOrder, customer, at).sort()).toEqual(
      ['cancel', 'confirm', 'departure_date_update', 'effect_date', 'interview_choose', 'material_delete', 'material_replace', 'material_upload'].sort(),
    );
    expect(allowedEvents(draftOrder, operator, at)).toEqual([]);
    expect(allowedEvents(draftOrder, supervisor, at)).toEqual([]);
    // Past its 24 h: the uploads' guard refuses, with the message a page shows.
    const late = orderAt('draft', { expires_at: at - 1 });
    expect(allowedEvents(late, customer, at)).not.toContain('material_upload');
    expect(refusalOf('material_upload', late, customer, at)?.ret).toBe(ErrorCode.ORDER_ALREADY_CANCELLED);
  });

  it('in review: the operator reviews; only a supervisor may refund or close; the customer may move the departure date', () => {
    const review = orderAt('processing:material_review');
    const byOperator = allowedEvents(review, operator, at);
    for (const event of ['assign', 'material_review', 'material_review_passed', 'material_review_failed', 'price_difference_request'] as const)
      expect(byOperator).toContain(event);
    expect(byOperator).not.toContain('refund_create');
    expect(byOperator).not.toContain('close_refund');
    expect(byOperator).not.toContain('submit');
    expect(allowedEvents(review, supervisor, at)).toEqual(expect.arrayContaining(['refund_create', 'close_refund', 'material_review']));
    expect(allowedEvents(review, customer, at)).toEqual(['departure_date_update']);
    // The refusal's message names the state.
    expect(refusalOf('submit', review, operator, at)?.message).toBe('订单办理中（资料审核中），不能递交使馆');
    expect(refusalOf('refund_create', review, operator, at)?.ret).toBe(ErrorCode.ORDER_ACTION_FORBIDDEN);
  });

  it('never offers a person a system event, in any place', () => {
    const systemOnly = LIFECYCLE.filter((rule) => rule.by.length === 1 && rule.by[0] === 'system').map((rule) => rule.event);
    const places: Place[] = [
      'draft',
      'pending_payment',
      'cancelled',
      'completed',
      'refunded',
      ...ORDER_STEP_VALUES.map((step) => `processing:${step}` as Place),
    ];
    for (const place of places)
      for (const caller of [customer, operator, supervisor]) {
        const allowed = allowedEvents(orderAt(place), caller, at);
        for (const event of systemOnly) expect(allowed, `${place}: ${event}`).not.toContain(event);
        // Whatever is allowed now, the table lists for that place and side.
        const side = caller.kind === 'customer' ? 'customer' : caller.role === 'supervisor' ? 'supervisor' : 'operator';
        for (const event of allowed) expect(eventsFrom(place, side), `${place}: ${event}`).toContain(event);
      }
    // A 产品编辑 (issue 26) may fire nothing, anywhere.
    for (const place of places) expect(allowedEvents(orderAt(place), catalogueEditor, at), place).toEqual([]);
  });
});

describe(`apply (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('refuses an event of another role, and one the state does not allow, changing nothing', async () => {
    const order = await draft();
    const forbidden = await refusal(applyOne(order, { event: 'material_review' }));
    expect(forbidden.ret).toBe(ErrorCode.ORDER_ACTION_FORBIDDEN);
    const wrongState = await refusal(applyOne(order, { event: 'submit' }, operator));
    expect(wrongState.ret).toBe(ErrorCode.ORDER_STATE_INVALID);
    expect(wrongState.message).toBe('订单草稿，不能递交使馆');
    expect(await row(order.user_order_id)).toMatchObject({ status: 'draft', version: 0 });
    expect((await events(order.user_order_id)).map((e) => e.event)).toEqual(['create']);
  });

  it('moves the order, bumps its version, records statuses and steps, and when it entered the place', async () => {
    const order = await draft();
    ctx.t.clock.now = T0;
    const confirmed = await applyOne(order, { event: 'confirm' });
    expect(confirmed).toMatchObject({ status: 'pending_payment', step: null, version: 1 });
    const paid = await applyOne(confirmed, { event: 'pay', set: { paid_at: T0, expires_at: null } }, SYSTEM);
    expect(paid).toMatchObject({ status: 'processing', step: 'material_review', version: 2 });
    expect(await row(order.user_order_id)).toMatchObject({ status: 'processing', step: 'material_review', version: 2, step_entered_at: T0 });
    expect((await events(order.user_order_id)).slice(1)).toMatchObject([
      { event: 'confirm', actor: 'customer', actor_id: alice.accountId, from_status: 'draft', to_status: 'pending_payment', from_step: null, to_step: null },
      { event: 'pay', actor: 'system', actor_id: null, from_status: 'pending_payment', to_status: 'processing', from_step: null, to_step: 'material_review' },
    ]);
    // A place with several ways out needs the service to name one of them.
    await expect(applyOne(paid, { event: 'material_review_passed', to: 'processing:submitted' }, operator)).rejects.toThrow(/cannot lead/);
    expect(await applyOne(paid, { event: 'material_review_passed', to: 'processing:page_check' }, operator)).toMatchObject({ step: 'page_check', version: 3 });
  });

  it('writes a record that changes nothing without touching the order, and a content edit without statuses', async () => {
    const order = await draft();
    const after = await applyOne(order, { event: 'payment_refund_due', detail: { reason: 'order_paid' } }, SYSTEM);
    expect(after.version).toBe(0);
    expect(await row(order.user_order_id)).toMatchObject({ version: 0 });
    const edited = await applyOne(order, { event: 'effect_date', set: { effect_date: '2026-12-20' } });
    expect(edited.version).toBe(1);
    const [, record, edit] = await events(order.user_order_id);
    expect(record).toMatchObject({ event: 'payment_refund_due', from_status: 'draft', to_status: 'draft' });
    expect(JSON.parse(record!.detail!)).toEqual({ reason: 'order_paid' });
    expect(edit).toMatchObject({ event: 'effect_date', from_status: null, to_status: null, from_step: null, to_step: null });
  });

  it('loses to a change decided on the same version, and rolls back applicant writes of another order', async () => {
    const order = await draft();
    const other = await draft();
    await applyOne(order, { event: 'effect_date', set: { effect_date: '2026-12-20' } });
    await expect(applyOne(order, { event: 'effect_date', set: { effect_date: '2026-12-21' } })).rejects.toBeInstanceOf(LifecycleConflict);
    const [foreign] = await ctx.t.db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', other.user_order_id).execute();
    const fresh = await createOrderLifecycle(ctx.t.db, { now: () => T0 }).current(alice, order.user_order_id);
    await expect(applyOne(fresh, { event: 'confirm', applicants: [{ applicant_id: foreign!.applicant_id, set: { insured: 1 } }] })).rejects.toBeInstanceOf(
      LifecycleConflict,
    );
    expect(await row(order.user_order_id)).toMatchObject({ status: 'draft', version: 1 });
  });

  it('lets a supervisor fire supervisor events and an operator not', async () => {
    expect(ruleOf('close_refund').by).toEqual(['supervisor']);
    const order = await draft();
    const paid = await applyOne(await applyOne(order, { event: 'confirm' }), { event: 'pay' }, SYSTEM);
    expect(placeOf(paid)).toBe('processing:material_review');
    expect((await refusal(applyOne(paid, { event: 'close_refund' }, operator))).ret).toBe(ErrorCode.ORDER_ACTION_FORBIDDEN);
    expect(await applyOne(paid, { event: 'close_refund' }, { ...operator, role: 'supervisor' })).toMatchObject({ status: 'refunded', step: null });
  });
});

describe(`the lifecycle's transaction (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('keeps apply() to itself: a change goes through createOrderLifecycle()', () => {
    expect('apply' in lifecycleModule).toBe(false);
    // @ts-expect-error apply is not exported (issue 24): services call change() or transaction().
    expect(lifecycleModule.apply).toBeUndefined();
  });

  it("commits several changes and the module's own writes together, or none of them", async () => {
    const order = await draft();
    const lifecycle = createOrderLifecycle(ctx.t.db, { now: () => T0 });
    await expect(
      lifecycle.transaction(async (tx) => {
        const confirmed = await tx.change(order, { event: 'confirm' }, alice);
        await tx.change(confirmed, { event: 'pay' }, SYSTEM);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await row(order.user_order_id)).toMatchObject({ status: 'draft', version: 0 });
    expect((await events(order.user_order_id)).map((e) => e.event)).toEqual(['create']);

    const paid = await lifecycle.transaction(async (tx) => {
      const confirmed = await tx.change(order, { event: 'confirm' }, alice);
      return tx.change(confirmed, { event: 'pay' }, SYSTEM);
    });
    expect(paid).toMatchObject({ status: 'processing', step: 'material_review', version: 2 });
    expect((await events(order.user_order_id)).map((e) => e.event)).toEqual(['create', 'confirm', 'pay']);
  });

  it('joins the transaction it was made on (a module called inside another change)', async () => {
    const order = await draft();
    await expect(
      ctx.t.db.transaction().execute(async (trx) => {
        await createOrderLifecycle(trx, { now: () => T0 }).transaction((tx) => tx.change(order, { event: 'confirm' }, alice));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await row(order.user_order_id)).toMatchObject({ status: 'draft', version: 0 });
  });
});

describe('the sub-machines', () => {
  const refusalCode = (error: AppError | null) => error?.ret ?? null;

  it('each transition records an event of the table (or none), by an actor the event allows', () => {
    for (const { machine, transition, rule } of subTransitions()) {
      expect(rule.from.length, `${machine}.${transition}`).toBeGreaterThan(0);
      expect(rule.refuse()).toBeInstanceOf(AppError);
      if (rule.event === null) continue;
      const by = ruleOf(rule.event).by;
      for (const actor of rule.by) expect(by, `${machine}.${transition}`).toContain(actor);
    }
    expect(Object.keys(SUB_LIFECYCLE)).toEqual(['page_check', 'interview_change', 'price_difference', 'refund']);
  });

  it("an applicant's page check: edit and publish before publication or after a correction; confirm or correct only published pages", () => {
    for (const state of ['draft', 'correction'] as const) {
      expect(subRefusalOf('page_check', 'edit_pages', state)).toBeNull();
      expect(subRefusalOf('page_check', 'publish', state)).toBeNull();
      expect(subAllows('page_check', 'confirm', state)).toBe(false);
      expect(refusalCode(subRefusalOf('page_check', 'correction', state))).toBe(ErrorCode.PAGE_CHECK_NOT_PUBLISHED);
    }
    for (const state of ['published', 'confirmed'] as const) {
      expect(refusalCode(subRefusalOf('page_check', 'edit_pages', state))).toBe(ErrorCode.PAGE_CHECK_LOCKED);
      expect(refusalCode(subRefusalOf('page_check', 'publish', state))).toBe(ErrorCode.PAGE_CHECK_LOCKED);
    }
    expect(subRefusalOf('page_check', 'confirm', 'published')).toBeNull();
    expect(subRefusalOf('page_check', 'correction', 'published')).toBeNull();
    expect(refusalCode(subRefusalOf('page_check', 'confirm', 'confirmed'))).toBe(ErrorCode.PAGE_CHECK_NOT_PUBLISHED);
    expect(subFrom('page_check', 'publish')).toEqual(['draft', 'correction']);
    expect(subReached('page_check', 'confirm', 'confirmed')).toBe(true);
    expect(subReached('page_check', 'confirm', 'published')).toBe(false);
    expect(subReached('page_check', 'confirm', undefined)).toBe(false);
  });

  it('an interview date change: one open request per applicant; only an open one is answered', () => {
    for (const state of ['none', 'accepted', 'declined'] as const) expect(subRefusalOf('interview_change', 'request', state)).toBeNull();
    expect(refusalCode(subRefusalOf('interview_change', 'request', 'open'))).toBe(ErrorCode.INTERVIEW_CHANGE_ALREADY_OPEN);
    for (const answer of ['accept', 'decline'] as const) {
      expect(subRefusalOf('interview_change', answer, 'open')).toBeNull();
      for (const state of ['none', 'accepted', 'declined'] as const) {
        expect(refusalCode(subRefusalOf('interview_change', answer, state))).toBe(ErrorCode.INTERVIEW_CHANGE_NOT_FOUND);
      }
    }
  });

  it('a price difference: created when none is open, paid or closed only while open', () => {
    expect(subRefusalOf('price_difference', 'create', 'none')).toBeNull();
    expect(refusalCode(subRefusalOf('price_difference', 'create', 'open'))).toBe(ErrorCode.PRICE_DIFFERENCE_ALREADY_OPEN);
    for (const transition of ['pay', 'close'] as const) {
      expect(subRefusalOf('price_difference', transition, 'open')).toBeNull();
      expect(refusalCode(subRefusalOf('price_difference', transition, 'paid'))).toBe(ErrorCode.PRICE_DIFFERENCE_NOT_OPEN);
      expect(refusalCode(subRefusalOf('price_difference', transition, 'cancelled'))).toBe(ErrorCode.PRICE_DIFFERENCE_NOT_OPEN);
    }
    expect(subFrom('price_difference', 'close')).toEqual(['open']);
  });

  it('a refund: created pending, sent once, settled once (succeeded or failed), never again', () => {
    expect(subRefusalOf('refund', 'create', 'none')).toBeNull();
    expect(subRefusalOf('refund', 'close', 'none')).toBeNull();
    expect(subAllows('refund', 'send', 'pending')).toBe(true);
    expect(subAllows('refund', 'send', 'processing')).toBe(false);
    for (const transition of ['succeed', 'fail'] as const) {
      expect(subFrom('refund', transition)).toEqual(['pending', 'processing']);
      for (const final of ['succeeded', 'failed'] as const) expect(subAllows('refund', transition, final)).toBe(false);
    }
    expect(() => checkSubAllowed('refund', 'succeed', 'succeeded')).toThrow(AppError);
  });

  it('allowedEvents asks the sub-record too when it is given', () => {
    const order = {
      user_order_id: 1,
      status: 'processing',
      step: 'page_check',
      version: 3,
      expires_at: null,
      departure_date: '2026-12-28',
      need_interview: false,
    } as const;
    const customer: Customer = { kind: 'customer', accountId: 1, enterpriseId: 1 } as Customer;
    expect(allowedEvents(order, customer, T0)).toEqual(expect.arrayContaining(['page_check_confirm', 'page_check_correction']));
    expect(allowedEvents(order, customer, T0, { page_check: 'published' })).toEqual(expect.arrayContaining(['page_check_confirm', 'page_check_correction']));
    const unpublished = allowedEvents(order, customer, T0, { page_check: 'draft' });
    expect(unpublished).not.toContain('page_check_confirm');
    expect(unpublished).not.toContain('page_check_correction');
    expect(allowedEvents(order, operator, T0, { page_check: 'published' })).not.toContain('page_check_publish');
    expect(allowedEvents(order, operator, T0, { page_check: 'correction' })).toContain('page_check_publish');
    expect(allowedEvents(order, operator, T0, { price_difference: 'open' })).not.toContain('price_difference_request');
    expect(allowedEvents(order, operator, T0, { price_difference: 'open' })).toContain('price_difference_cancel');
    expect(allowedEvents(order, operator, T0, { price_difference: 'none' })).not.toContain('price_difference_cancel');
  });

  it('is in docs/order-rules.md, every machine and transition', () => {
    const doc = renderLifecycleDoc();
    for (const { machine, transition } of subTransitions()) {
      expect(doc).toContain(`**${machine}**`);
      expect(doc).toMatch(new RegExp(`\\| ${transition} \\|`));
    }
  });
});
