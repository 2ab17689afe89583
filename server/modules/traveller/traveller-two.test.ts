// Two saved travellers on one order: every offer taken, then the upload page's reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travellerDocumentUpload, travellerOffers } from '../../../common/contracts/traveller.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { type Customer, draftOrder, materialTestContext, type MaterialTestContext, multipart, newCustomer } from '../../test-support/fixtures/material.ts';
import { signedHeaders } from '../../test-support/test-app.ts';

let ctx: MaterialTestContext;
let alice: Customer;
beforeAll(async () => {
  ctx = await materialTestContext();
  alice = await newCustomer(ctx.t);
});
afterAll(async () => {
  await ctx?.close();
});

async function doc(travellerId: number, fields: Record<string, string>, content: Buffer) {
  const { body, contentType } = multipart({ traveller_id: travellerId, ...fields }, { name: 'x.jpg', content });
  const response = await ctx.t.app.inject({
    method: 'POST',
    url: travellerDocumentUpload.path,
    headers: signedHeaders(ctx.t.clock, { token: alice.token, headers: { 'content-type': contentType } }),
    payload: body,
  });
  expect(response.json().ret).toBe(0);
}

describe(`two travellers on one order (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('takes all four offers', async () => {
    for (const [index, mobile] of ['13900139000', '13900139001'].entries()) {
      const saved = await ctx.t.call(
        '/www/traveller/traveller_save',
        { name: `申请人${index + 1}`, pinyin: 'A B', sex: 'M', birth_date: '1990-01-01', mobile_phone: mobile, identity_id: 0, consent: true },
        { token: alice.token },
      );
      expect(saved.body.ret).toBe(0);
      await doc(saved.body.body.traveller_id, { doc_type: 'passport', expiry_date: '2031-01-01' }, fixture('jpeg'));
      await doc(saved.body.body.traveller_id, { doc_type: 'photo', taken_date: '2026-11-20' }, fixture('photo'));
    }
    const { userOrderId } = await draftOrder(ctx.t, alice, ctx.products.withPhoto.visa_product_id, [0, 0]);
    const offers = (await ctx.t.callContract(travellerOffers, { user_order_id: userOrderId }, { token: alice.token })).result!;
    expect(offers.applicants).toHaveLength(2);
    for (const person of offers.applicants)
      for (const offer of person.offers) {
        const answer = await ctx.t.call(
          '/www/traveller/offer_accept',
          { user_order_id: userOrderId, applicant_id: person.applicant_id, document_id: offer.document_id, material_id: offer.material_id },
          { token: alice.token },
        );
        expect(answer.body.ret, answer.body.msg).toBe(0);
        const [a, b] = await Promise.all([
          ctx.t.call('/www/order/material_list', { user_order_id: userOrderId }, { token: alice.token }),
          ctx.t.call(travellerOffers.path, { user_order_id: userOrderId }, { token: alice.token }),
        ]);
        expect(a.body.ret).toBe(0);
        expect(b.body.ret).toBe(0);
      }
  }, 60_000);
});
