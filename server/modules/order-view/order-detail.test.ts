// The customer's order view (server/modules/order-view/): the detail is one
// read holding every part the page shows, with the version and the events the
// customer may fire now; the pages' buttons follow those events. On SQLite or
// PostgreSQL (TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionAllowed } from '../../../common/order.ts';
import type { Customer } from '../../platform/principal.ts';
import { applicant, newCustomer, type OrderTestContext, orderTestContext } from '../../test-support/fixtures/order.ts';
import { createCustomerOrderView } from './customer-view.ts';

let ctx: OrderTestContext;
let alice: Customer;

beforeAll(async () => {
  ctx = await orderTestContext();
  alice = await newCustomer(ctx.t);
});
afterAll(async () => {
  await ctx?.close();
});

async function draft() {
  const { user_order_id } = await ctx.service.create(alice, {
    visa_product_id: ctx.products.plain.visa_product_id,
    departure_date: '2026-12-28',
    applicants: [applicant(0), applicant(1)],
  });
  return user_order_id;
}

describe('the customer order view', () => {
  it('answers the whole detail in one read: parts of every module, the version and the allowed events', async () => {
    const id = await draft();
    const view = createCustomerOrderView(ctx.t.db, { now: () => ctx.t.clock.now });
    const detail = await view.detail(alice, id);
    expect(detail).toMatchObject({ user_order_id: id, status: 'draft', version: expect.any(Number), ordering_step: 'upload' });
    // Order, materials, interviews, price differences, refunds, results, address, insurance: all in the one answer.
    expect(detail.applicants).toHaveLength(2);
    expect(detail.applicants[0]).toMatchObject({ interview: null, material_file_count: 0, visa_valid_from: null });
    expect(detail.missing_materials.length).toBeGreaterThan(0);
    expect(detail).toMatchObject({ price_differences: [], refunds: [], return_address: null, insurance: null, payments: [] });
    expect(detail.visa_results.map((result) => result.status)).toEqual(['pending', 'pending']);
    // The app wires the same reads (app.ts: the order service with the view's detail and list).
    expect(await ctx.t.services.order.detail(alice, id)).toEqual(detail);
  });

  it('carries the events the customer may fire in each state', async () => {
    const id = await draft();
    const drafted = await ctx.service.detail(alice, id);
    expect(drafted.allowed_events).toEqual(expect.arrayContaining(['material_upload', 'confirm', 'cancel', 'departure_date_update']));
    expect(drafted.allowed_events).not.toContain('payment_create');
    expect(drafted.allowed_events).not.toContain('reupload_submit');

    await ctx.service.cancel(alice, id);
    const cancelled = await ctx.service.detail(alice, id);
    expect(cancelled.allowed_events).toEqual([]);
    expect(cancelled.version).toBeGreaterThan(drafted.version);
    // The list's card follows the same order: no action left to take.
    const list = await ctx.service.list(alice, 'all', 1);
    expect(list.page_data.find((order) => order.user_order_id === id)?.actions).toEqual([]);
  });

  it('shows an action only when its event is allowed; actions without an event follow the server', () => {
    expect(actionAllowed('cancel', ['cancel', 'confirm'])).toBe(true);
    expect(actionAllowed('cancel', ['confirm'])).toBe(false);
    expect(actionAllowed('pay', [])).toBe(false);
    expect(actionAllowed('pay_price_difference', [])).toBe(true);
    expect(actionAllowed('view_interview_notice', [])).toBe(true);
    // The list's summaries carry no allowed events: their actions stand.
    expect(actionAllowed('cancel', undefined)).toBe(true);
  });
});
