// The address book through the signed API, on SQLite or PostgreSQL
// (TEST_DATABASE_URL): validation against the address library, one default
// per kind, the per-kind limit, and enterprise scoping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_LIMITS } from '../../../common/contracts/rules.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { resolveRegion } from './address-region.ts';

let t: TestApp;
let alice: string;
let aliceColleague: string;
let bob: string;
let bobEnterprise: number;

/** 广东省 深圳市 南山区 */
const SHENZHEN = { province_code: '440000', city_code: '440300', county_code: '440305' };

function returnAddress(extra: Record<string, unknown> = {}) {
  return { kind: 'return', name: '王敏', mobile_phone: '13800138000', ...SHENZHEN, detail: '科技园南区深南大道 10000 号', ...extra };
}

async function save(token: string, payload: Record<string, unknown>) {
  return t.call('/www/address/address_save', payload, { token });
}

async function list(token: string, kind: 'return' | 'peer') {
  const result = await t.call('/www/address/address_list', { kind }, { token });
  expect(result.body.ret).toBe(0);
  return result.body.body.list as Array<Record<string, any>>;
}

async function addressCount(): Promise<number> {
  const row = await t.db
    .selectFrom('address')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  t = await createTestApp();
  const a = await t.createAccount();
  alice = await t.login(a.account, a.password);
  // A second login of the same enterprise: the book is the enterprise's, not the account's.
  aliceColleague = await t.login(a.account, a.password);
  const b = await t.createAccount();
  bob = await t.login(b.account, b.password);
  bobEnterprise = b.enterpriseId;
});
afterAll(async () => {
  await t?.close();
});

describe(`address book (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('adds a return address with the names of its codes; the first of a kind becomes the default', async () => {
    const result = await save(alice, returnAddress({ name: '\u3000王敏 ', mobile_phone: '138-0013 8000' }));
    expect(result.body.ret).toBe(0);
    expect(result.body.body).toMatchObject({
      kind: 'return',
      company_name: null,
      name: '王敏',
      mobile_phone: '13800138000',
      province_name: '广东省',
      city_name: '深圳市',
      county_name: '南山区',
      is_default: true,
    });
    const second = await save(alice, returnAddress({ name: '李雷', company_name: '被忽略的公司' }));
    expect(second.body.body).toMatchObject({ is_default: false, company_name: null });
    const rows = await list(aliceColleague, 'return');
    expect(rows.map((row) => row.name)).toEqual(['王敏', '李雷']);
    expect(await list(alice, 'peer')).toEqual([]);
  });

  it('keeps one default per kind: setting one clears the others', async () => {
    const rows = await list(alice, 'return');
    const li = rows.find((row) => row.name === '李雷')!;
    const result = await save(alice, { ...returnAddress({ name: '李雷' }), address_id: li.address_id, is_default: true });
    expect(result.body.body.is_default).toBe(true);
    const after = await list(alice, 'return');
    expect(after.filter((row) => row.is_default).map((row) => row.name)).toEqual(['李雷']);
    // The default comes first.
    expect(after[0]!.name).toBe('李雷');
    // A peer default does not touch the return default.
    await save(alice, { kind: 'peer', company_name: '北京环球旅行社', name: '赵六', mobile_phone: '13900139000', ...SHENZHEN, detail: '朝阳区建国路 88 号' });
    expect((await list(alice, 'return')).filter((row) => row.is_default)).toHaveLength(1);
    expect((await list(alice, 'peer'))[0]).toMatchObject({ company_name: '北京环球旅行社', is_default: true });
  });

  it('refuses bad input with a Chinese message and stores nothing', async () => {
    const before = await addressCount();
    const cases: Array<[Record<string, unknown>, number]> = [
      [returnAddress({ name: '   ' }), ErrorCode.ADDRESS_NAME_INVALID],
      [returnAddress({ name: '王'.repeat(21) }), ErrorCode.ADDRESS_NAME_INVALID],
      [returnAddress({ mobile_phone: '1380013800' }), ErrorCode.ADDRESS_MOBILE_INVALID],
      [returnAddress({ mobile_phone: '23800138000' }), ErrorCode.ADDRESS_MOBILE_INVALID],
      [returnAddress({ province_code: '990000' }), ErrorCode.ADDRESS_REGION_INVALID],
      // 北京市's city under 广东省
      [returnAddress({ city_code: '110100' }), ErrorCode.ADDRESS_REGION_INVALID],
      // 北京 东城区 under 深圳市
      [returnAddress({ county_code: '110101' }), ErrorCode.ADDRESS_REGION_INVALID],
      [returnAddress({ county_code: '' }), ErrorCode.ADDRESS_REGION_INVALID],
      [returnAddress({ county_code: null }), ErrorCode.ADDRESS_REGION_INVALID],
      [returnAddress({ detail: ' 号 ' }), ErrorCode.ADDRESS_DETAIL_INVALID],
      [returnAddress({ detail: '路'.repeat(101) }), ErrorCode.ADDRESS_DETAIL_INVALID],
      [returnAddress({ kind: 'peer' }), ErrorCode.ADDRESS_COMPANY_INVALID],
      [returnAddress({ kind: 'peer', company_name: '公'.repeat(51) }), ErrorCode.ADDRESS_COMPANY_INVALID],
      [returnAddress({ kind: 'other' }), ErrorCode.INVALID_PARAMS],
      [returnAddress({ province_code: 440000 }), ErrorCode.INVALID_PARAMS],
      [returnAddress({ is_default: 'yes' }), ErrorCode.INVALID_PARAMS],
    ];
    for (const [payload, ret] of cases) {
      const result = await save(alice, payload);
      expect(result.status, JSON.stringify(payload)).toBe(200);
      expect(result.body.ret, JSON.stringify(payload)).toBe(ret);
      expect(result.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await addressCount()).toBe(before);
  });

  it('accepts a city the library lists no counties for only without a county', () => {
    const library = { '86': { '440000': '广东省' }, '440000': { '441900': '东莞市', '440300': '深圳市' }, '440300': { '440305': '南山区' } };
    expect(resolveRegion('440000', '441900', '', library)).toMatchObject({ county_code: '', city_name: '东莞市', county_name: '' });
    expect(resolveRegion('440000', '441900', null, library)).not.toBeNull();
    expect(resolveRegion('440000', '441900', '441901', library)).toBeNull();
    expect(resolveRegion('440000', '440300', '', library)).toBeNull();
  });

  it('edits in place; the kind of an address cannot change', async () => {
    const [first] = await list(alice, 'return');
    const edited = await save(alice, { ...returnAddress({ name: '李雷', detail: '前海路 1 号' }), address_id: first!.address_id, is_default: true });
    expect(edited.body.body).toMatchObject({ address_id: first!.address_id, detail: '前海路 1 号' });
    const asPeer = await save(alice, { ...returnAddress({ kind: 'peer', company_name: '某公司' }), address_id: first!.address_id });
    expect(asPeer.body.ret).toBe(ErrorCode.ADDRESS_NOT_FOUND);
  });

  it("another enterprise's address answers like a missing one", async () => {
    const [aliceAddress] = await list(alice, 'return');
    expect(await list(bob, 'return')).toEqual([]);
    const missing = await save(bob, { ...returnAddress(), address_id: 999_999 });
    const foreign = await save(bob, { ...returnAddress({ name: '改掉' }), address_id: aliceAddress!.address_id });
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body.ret).toBe(ErrorCode.ADDRESS_NOT_FOUND);
    const foreignDelete = await t.call('/www/address/address_delete', { address_id: aliceAddress!.address_id }, { token: bob });
    const missingDelete = await t.call('/www/address/address_delete', { address_id: 999_999 }, { token: bob });
    expect(foreignDelete.body).toEqual(missingDelete.body);
    expect((await list(alice, 'return'))[0]).toMatchObject({ address_id: aliceAddress!.address_id, name: aliceAddress!.name });
  });

  it('deletes once; a second delete is 1861', async () => {
    const added = await save(alice, returnAddress({ name: '待删除' }));
    const id = added.body.body.address_id as number;
    expect((await t.call('/www/address/address_delete', { address_id: id }, { token: alice })).body).toMatchObject({ ret: 0, body: { address_id: id } });
    expect((await t.call('/www/address/address_delete', { address_id: id }, { token: alice })).body.ret).toBe(ErrorCode.ADDRESS_NOT_FOUND);
  });

  it(`holds at most ${ADDRESS_LIMITS.maxPerKind} addresses per kind and enterprise`, async () => {
    const existing = (await list(bob, 'return')).length;
    for (let i = existing; i < ADDRESS_LIMITS.maxPerKind; i += 1) {
      expect((await save(bob, returnAddress({ name: `收件人${i}` }))).body.ret).toBe(0);
    }
    const over = await save(bob, returnAddress({ name: '多一个' }));
    expect(over.body.ret).toBe(ErrorCode.ADDRESS_LIMIT_REACHED);
    const rows = await t.db.selectFrom('address').select('is_default').where('enterprise_id', '=', bobEnterprise).where('kind', '=', 'return').execute();
    expect(rows).toHaveLength(ADDRESS_LIMITS.maxPerKind);
    expect(rows.filter((row) => row.is_default === 1)).toHaveLength(1);
    // Editing and the other kind are still possible.
    expect(
      (await save(bob, { kind: 'peer', company_name: '同行', name: '钱七', mobile_phone: '13700137000', ...SHENZHEN, detail: '福田区 1 号' })).body.ret,
    ).toBe(0);
  });

  it('needs a session', async () => {
    const result = await t.call('/www/address/address_list', { kind: 'return' });
    expect(result.status).toBe(401);
    expect(result.body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
  });
});
