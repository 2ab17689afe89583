// A fuzz of the whole signed surface (issue 23): every call of WWW_CONTRACTS
// (as a logged-in customer) and ADMIN_CONTRACTS (as a logged-in supervisor),
// read from the registries so that a new call is fuzzed the day it is added,
// and the multipart uploads. Each payload is built from the contract's
// own schema (z.toJSONSchema) with plausible values (the customer's real order,
// applicant, product…), then
//   1. every field in turn, and an extra key, gets a character the text rule
//      refuses (NUL, overrides, isolates, lone surrogates, DEL, C1…): the answer
//      must be exactly the rule's 1001;
//   2. every text field gets a line break: refused unless the contract declares
//      the field multi-line, where the rule must let it through;
//   3. TEXT_FUZZ_ROUNDS random bodies per call (default 6) replace fields with
//      odd values — very long strings, numbers as strings, huge and negative
//      numbers, nested objects and arrays, `__proto__` keys, deep nesting, other
//      scripts, emoji — and refused characters; a body the rule refuses must be
//      refused, any other must not be refused by it.
// Across the run no answer may be HTTP 5xx. The figures are printed:
//   TEXT_FUZZ_ROUNDS=200 npx vitest run server/platform/text-fuzz.test.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Contract } from '../../common/contracts/define.ts';
import { ADMIN_CONTRACTS, WWW_CONTRACTS } from '../../common/contracts/index.ts';
import { findRefusedText, TEXT_REFUSED_MSG, textProblem } from '../../common/contracts/text.ts';
import { ErrorCode } from '../../common/error-codes.ts';
import { addDays, chinaDate } from '../../common/order.ts';
import { sha256Hex } from '../../common/signing.ts';
import { fixture } from '../../tests/fixtures/index.ts';
import { multipart } from '../test-support/fixtures/material.ts';
import { createTestApp, signedHeaders, type TestApp } from '../test-support/test-app.ts';

const ROUNDS = Math.max(0, Number(process.env.TEXT_FUZZ_ROUNDS ?? 6));
const SEED = Number(process.env.TEXT_FUZZ_SEED ?? 20261123);
const database = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';

/** Every character class the rule refuses, in any text field or key. */
const REFUSED_CHARACTERS = [
  '\u0000',
  '\u202E',
  '\ud800',
  '\udfff',
  '\u0001',
  '\u001B',
  '\u007F',
  '\u0085',
  '\u009F',
  '\u061C',
  '\u200E',
  '\u200F',
  '\u202A',
  '\u202D',
  '\u2066',
  '\u2069',
  '\udbff',
  '\udc00',
];
const LINE_BREAKS = ['\n', '\r\n', '\t'];
/** A multipart body is UTF-8 bytes: a lone surrogate cannot be sent (it arrives as U+FFFD, which the rule accepts). */
const MULTIPART_REFUSED = REFUSED_CHARACTERS.filter((character) => !/[\ud800-\udfff]/.test(character));
const onTheWire = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

/** A small deterministic PRNG: a failure replays from its seed (TEXT_FUZZ_SEED). */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const random = prng(SEED);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minItems?: number;
  minimum?: number;
  maximum?: number;
};

type Path = Array<string | number>;

interface Leaf {
  path: Path;
  /** The walk's name of the field (as `multiline` lists them). */
  name: string;
  text: boolean;
}

function schemaOf(contract: Contract): JsonSchema {
  return z.toJSONSchema(contract.payload, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

function branches(schema: JsonSchema): JsonSchema[] {
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
}

function accepts(schema: JsonSchema, type: string): boolean {
  const own = Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
  return own || branches(schema).some((branch) => accepts(branch, type));
}

/** Plausible values: the fuzz's own rows for ids, a valid-looking text for the usual fields. */
interface World {
  ids: Record<string, number>;
  today: string;
  now: number;
  account: string;
}

function plausibleText(name: string, world: World): string {
  if (name === 'account') return world.account;
  if (name === 'password') return sha256Hex('Passw0rd!');
  if (name === 'mobile_phone') return '13800138000';
  if (name === 'email') return 'fuzz@example.com';
  if (name.endsWith('_date') || name === 'valid_from') return addDays(world.today, 20);
  if (name === 'valid_to') return addDays(world.today, 200);
  if (name === 'start_time') return '09:00';
  if (name === 'end_time') return '10:00';
  if (name === 'province_code') return '440000';
  if (name === 'city_code') return '440300';
  if (name === 'county_code') return '440305';
  if (name === 'waybill_no') return 'SF1234567890123';
  if (name === 'code') return '123456';
  return '测试文本';
}

function sample(schema: JsonSchema, name: string, world: World): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const options = branches(schema).filter((branch) => branch.type !== 'null');
  if (options.length > 0 && !schema.type) return sample(options[0]!, name, world);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) value[key] = sample(child, key, world);
      return value;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sample(schema.items ?? {}, name, world));
    case 'integer':
    case 'number':
      if (name in world.ids) return world.ids[name];
      if (name === 'start') return world.now + 2 * 3_600_000;
      if (name === 'end') return world.now + 4 * 3_600_000;
      if (name === 'amount') return 100;
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
    case 'boolean':
      return true;
    case 'string':
      return plausibleText(name, world);
    default:
      return '测试文本';
  }
}

/** Every field of a sample body (arrays through their first item), and whether it takes text. */
function leaves(schema: JsonSchema, value: unknown, path: Path, name: string, out: Leaf[]): Leaf[] {
  if (Array.isArray(value)) {
    const items = schema.items ?? branches(schema).find((branch) => branch.items)?.items ?? {};
    if (value.length > 0) leaves(items, value[0], [...path, 0], `${name}[]`, out);
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const properties = schema.properties ?? branches(schema).find((branch) => branch.properties)?.properties ?? {};
    for (const [key, child] of Object.entries(value)) leaves(properties[key] ?? {}, child, [...path, key], name === '' ? key : `${name}.${key}`, out);
    return out;
  }
  out.push({ path, name, text: accepts(schema, 'string') });
  return out;
}

function withValue(body: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(body) ? [...body] : { ...(body as object) };
  const [head, ...rest] = path;
  copy[head!] = withValue(copy[head!], rest, value);
  return copy;
}

function getAt(body: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as any)?.[key], body);
}

/** An own, enumerable `__proto__` key (what JSON.parse makes of one). */
function protoKey(value: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  Object.defineProperty(object, '__proto__', { value, enumerable: true, configurable: true, writable: true });
  return object;
}

/** Odd values the rule accepts: the services must answer them without a 500. */
function oddValue(): unknown {
  return pick<() => unknown>([
    () => '',
    () => ' ',
    () => '\u3000',
    () => 'x'.repeat(Math.floor(random() * 3000)),
    () => '中'.repeat(10_000),
    () => 'a'.repeat(300_000),
    () => pick(['1', '01', '-1', '0', '1e3', '1.5', '9'.repeat(30), 'NaN', 'Infinity', '0x10', ' 12 ', '２３']),
    () => pick([0, -1, 1.5, 2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), 1e308, -1e308, Number.MIN_VALUE]),
    () => pick([true, false, null]),
    () => ({ nested: { deeper: ['测试', 1, null] } }),
    () => [1, '2', null, { a: 'b' }],
    () => [],
    () => ({}),
    () => protoKey({ polluted: true }),
    () => ({ constructor: { prototype: { polluted: true } } }),
    () => pick(['😀👨‍👩‍👧🇨🇳', '𠮷野家', 'مرحبا بالعالم', 'שלום', 'Zoë Ñúñez', 'a\u200Db', '\uFEFF前导', '\uFFFD', '\uFFFF']),
    () => pick(["' or 1=1 --", '"; drop table account; --', '%00', '\\u0000', '<script>alert(1)</script>', '${jndi:ldap://x}', '../../etc/passwd']),
    () => pick(['2026-02-30', '0000-00-00', '9999-12-31', '2026-13-01', '25:61', 'today']),
    () => `张${pick(REFUSED_CHARACTERS)}三`,
    () => `${pick(REFUSED_CHARACTERS)}`,
    () => `第一行${pick(LINE_BREAKS)}第二行`,
  ])();
}

interface Tally {
  calls: number;
  serverErrors: string[];
  refused: number;
}

describe(`text fuzz of every call (${database})`, () => {
  let t: TestApp;
  let world: World;
  let customer: Awaited<ReturnType<TestApp['loggedInCustomer']>>;
  let supervisor: Awaited<ReturnType<TestApp['operator']>>;
  let customerToken: string;
  let supervisorToken: string;
  const tally: Tally = { calls: 0, serverErrors: [], refused: 0 };

  beforeAll(async () => {
    t = await createTestApp();
    const product = await t.insertProduct({ interview: true, photo: true, district: 'own' });
    customer = await t.loggedInCustomer();
    customerToken = customer.token;
    supervisor = await t.operator({ role: 'supervisor' });
    supervisorToken = supervisor.token;
    const other = await t.operator();
    // The log-in calls are fuzzed with another customer's account: their failures lock it, not the session's.
    const decoy = await t.insertCustomer();
    const today = chinaDate(t.clock.now);
    const order = await t.call(
      '/www/order/order_create',
      {
        visa_product_id: product.visa_product_id,
        consular_district_id: product.districts[0]!.consular_district_id,
        departure_date: addDays(today, 40),
        applicants: [
          { name: '张三', identity_id: 0, mobile_phone: '13800138001' },
          { name: '李四', identity_id: 1, mobile_phone: '13800138002' },
        ],
      },
      { token: customer.token },
    );
    expect(order.body.ret, order.body.msg).toBe(0);
    const userOrderId = order.body.body.user_order_id as number;
    const applicant = await t.db
      .selectFrom('order_applicant')
      .select('applicant_id')
      .where('user_order_id', '=', userOrderId)
      .orderBy('sort')
      .executeTakeFirstOrThrow();
    const material = product.materials.find((m) => m.identity_id === 0 && m.attr === 0)!;
    const address = await t.call(
      '/www/address/address_save',
      {
        kind: 'return',
        name: '王敏',
        mobile_phone: '13800138000',
        province_code: '440000',
        city_code: '440300',
        county_code: '440305',
        detail: '科技园南区深南大道 10000 号',
      },
      { token: customer.token },
    );
    expect(address.body.ret, address.body.msg).toBe(0);
    world = {
      today,
      now: t.clock.now,
      account: decoy.account,
      ids: {
        user_order_id: userOrderId,
        applicant_id: applicant.applicant_id,
        visa_product_id: product.visa_product_id,
        visa_country_id: product.visa_country_id,
        consular_district_id: product.districts[0]!.consular_district_id,
        material_id: material.material_id,
        address_id: address.body.body.address_id,
        operator_id: other.operatorId,
        version: 0,
        page: 1,
      },
    };
  });
  afterAll(async () => {
    console.log(`text fuzz (${database}): ${tally.calls} calls, ${tally.serverErrors.length} × 5xx, ${tally.refused} refused by the text rule`);
    await t?.close();
  });

  /**
   * New sessions for each phase: the log-out calls of the one before ended theirs. The fuzzed
   * log-ins use the decoy account, so their failures never lock this one.
   */
  async function freshSessions() {
    const login = await t.call('/www/account_login', { account: customer.account, password: sha256Hex(customer.password) }, { remoteAddress: '198.51.100.7' });
    expect(login.body.ret, login.body.msg).toBe(0);
    customerToken = login.body.body.token;
    supervisorToken = (await t.services.operator.openSession(supervisor.operatorId, '127.0.0.1', 'text-fuzz')).token;
  }

  /** One signed JSON call; any 5xx is recorded (and fails the test at the end). */
  async function send(contract: Contract, body: unknown, raw?: string) {
    const token = contract.path.startsWith('/admin-api/') ? supervisorToken : customerToken;
    const response = await t.app.inject({
      method: 'POST',
      url: contract.path,
      headers: signedHeaders(t.clock, { token }),
      payload: raw ?? JSON.stringify(body),
      // Each from an address of its own: a log-in's failures slow its address's next answers down (up to 2 s).
      remoteAddress: `198.18.${(tally.calls >> 8) & 255}.${tally.calls & 255}`,
    });
    tally.calls += 1;
    const answer = response.json() as { ret: number; msg: string; body: unknown };
    if (response.statusCode >= 500) tally.serverErrors.push(`${contract.path} ${response.statusCode} ${(raw ?? JSON.stringify(body)).slice(0, 300)}`);
    if (answer.msg === TEXT_REFUSED_MSG) tally.refused += 1;
    return { status: response.statusCode, answer };
  }

  // Log-outs last: each successful one ends the session the other calls use.
  const json = (Object.values({ ...WWW_CONTRACTS, ...ADMIN_CONTRACTS }) as Contract[])
    .filter((contract) => contract.body === 'json')
    .sort((a, b) => Number(a.path.endsWith('_logout')) - Number(b.path.endsWith('_logout')));
  const uploads = (Object.values({ ...WWW_CONTRACTS, ...ADMIN_CONTRACTS }) as Contract[]).filter((contract) => contract.body === 'multipart');

  it('covers every call of both registries', () => {
    expect(json.length + uploads.length).toBe(Object.keys(WWW_CONTRACTS).length + Object.keys(ADMIN_CONTRACTS).length);
    expect(uploads.map((c) => c.path).sort()).toEqual([
      '/admin-api/catalogue/workbook_import',
      '/admin-api/catalogue/workbook_preview',
      '/admin-api/invoice/issue',
      '/admin-api/page_check/upload',
      '/admin-api/result/file_upload',
      '/www/order/material_upload',
      '/www/passport/passport_read',
      '/www/traveller/document_upload',
    ]);
  });

  it('refuses a refused character in every field and key of every call with the rule’s 1001, and line breaks outside multi-line fields', async () => {
    await freshSessions();
    const wrong: string[] = [];
    let rotate = 0;
    for (const contract of json) {
      const schema = schemaOf(contract);
      const base = sample(schema, '', world);
      const multiline = new Set(contract.multiline ?? []);
      const fields = leaves(schema, base, [], '', []);
      // Every field: NUL, the override and both lone surrogates, and one more class in turn.
      for (const field of fields) {
        const characters = ['\u0000', '\u202E', '\ud800', '\udfff', REFUSED_CHARACTERS[4 + (rotate++ % (REFUSED_CHARACTERS.length - 4))]!];
        for (const character of characters) {
          const value = field.text ? `${String(sample({ type: 'string' }, field.name.split('.').pop()!, world))}${character}` : character;
          const { status, answer } = await send(contract, withValue(base, field.path, value));
          if (status !== 200 || answer.ret !== ErrorCode.INVALID_PARAMS || answer.msg !== TEXT_REFUSED_MSG)
            wrong.push(`${contract.path} ${field.name} ${JSON.stringify(character)} → ${status} ${answer.ret} ${answer.msg}`);
        }
        if (!field.text) continue;
        for (const lineBreak of LINE_BREAKS) {
          const { status, answer } = await send(contract, withValue(base, field.path, `第一行${lineBreak}第二行`));
          const refused = answer.msg === TEXT_REFUSED_MSG;
          if (status >= 500 || refused === multiline.has(field.name))
            wrong.push(
              `${contract.path} ${field.name} ${JSON.stringify(lineBreak)} (${multiline.has(field.name) ? 'multi-line' : 'single-line'}) → ${status} ${answer.ret} ${answer.msg}`,
            );
        }
      }
      // An extra key, at the top and nested under a known field.
      for (const body of [
        { ...(base as object), [`x${pick(REFUSED_CHARACTERS)}`]: 1 },
        { ...(base as object), extra: protoKey({ ['k\u202E']: '值' }) },
      ]) {
        const { answer } = await send(contract, body);
        if (answer.msg !== TEXT_REFUSED_MSG) wrong.push(`${contract.path} key → ${answer.ret} ${answer.msg}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(tally.serverErrors).toEqual([]);
  }, 120_000);

  it("answers numbers beyond the database's integers in every numeric field without a 5xx", async () => {
    // Found by the random phase on PostgreSQL: ids are 32-bit there ("value out of range for type integer").
    await freshSessions();
    const wrong: string[] = [];
    for (const contract of json) {
      const schema = schemaOf(contract);
      const base = sample(schema, '', world);
      const numeric = leaves(schema, base, [], '', []).filter((field) => typeof getAt(base, field.path) === 'number');
      for (const field of numeric) {
        for (const value of [2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1.5, ...(field.text ? ['2147483648', '9007199254740993'] : [])]) {
          const { status, answer } = await send(contract, withValue(base, field.path, value));
          if (status >= 500) wrong.push(`${contract.path} ${field.name} ${value} → ${status} ${answer.ret}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it(
    `answers ${ROUNDS} random odd bodies per call without a 5xx, refusing exactly what the rule refuses`,
    async () => {
      await freshSessions();
      const wrong: string[] = [];
      for (const contract of json) {
        const schema = schemaOf(contract);
        const base = sample(schema, '', world);
        const fields = leaves(schema, base, [], '', []);
        for (let round = 0; round < ROUNDS; round += 1) {
          let body: unknown = base;
          const changes = 1 + Math.floor(random() * 3);
          for (let i = 0; i < changes; i += 1) {
            const roll = random();
            if (roll < 0.75 && fields.length > 0) body = withValue(body, pick(fields).path, oddValue());
            else if (roll < 0.85) body = { ...(body as object), [pick(['x', '__proto__', 'constructor', 'toString', '中文键'])]: oddValue() };
            else if (roll < 0.95 && fields.length > 0) body = withValue(body, pick(fields).path, undefined);
            else body = oddValue();
          }
          // The root must be an object (else 1002), and JSON has no undefined: what the server parses.
          const text = JSON.stringify(body) ?? 'null';
          const parsed: unknown = JSON.parse(text);
          const { status, answer } = await send(contract, undefined, text);
          const expectRefused = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && findRefusedText(parsed, contract.multiline) !== null;
          // (A body over BODY_LIMIT_BYTES is refused before it is parsed, 1003; after a fuzzed log-out the session is gone, 401.)
          if (status < 500 && status !== 401 && answer.ret !== ErrorCode.BODY_TOO_LARGE && expectRefused !== (answer.msg === TEXT_REFUSED_MSG))
            wrong.push(`${contract.path} ${text.slice(0, 200)} → ${answer.ret} ${answer.msg}`);
        }
        // Deep nesting beside the plausible fields: the walk must not exhaust the stack.
        const deep = `${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}`;
        const sampleText = JSON.stringify(base);
        const { status, answer } = await send(contract, undefined, `{"deep":${deep}${sampleText === '{}' ? '' : `,${sampleText.slice(1, -1)}`}}`);
        if (status !== 401 && answer.msg !== TEXT_REFUSED_MSG) wrong.push(`${contract.path} deep → ${answer.ret} ${answer.msg}`);
      }
      expect(tally.serverErrors).toEqual([]);
      expect(wrong).toEqual([]);
    },
    Math.max(300_000, ROUNDS * 5_000),
  );

  it('fuzzes the multipart uploads: refused characters in form fields are refused, odd file names are cleaned, nothing answers 5xx', async () => {
    await freshSessions();
    const wrong: string[] = [];
    const jpeg = fixture('jpeg');
    for (const contract of uploads) {
      const schema = schemaOf(contract);
      const base = sample(schema, '', world) as Record<string, string | number>;
      if (contract.path === '/www/order/material_upload') delete base.replace_file_id;
      const token = contract.path.startsWith('/admin-api/') ? supervisorToken : customerToken;
      const post = async (fields: Record<string, string | number>, name: string) => {
        const { body, contentType } = multipart(fields, { name, content: jpeg });
        const response = await t.app.inject({
          method: 'POST',
          url: contract.path,
          headers: signedHeaders(t.clock, { token, headers: { 'content-type': contentType } }),
          payload: body,
        });
        tally.calls += 1;
        const answer = response.json() as { ret: number; msg: string };
        if (response.statusCode >= 500) tally.serverErrors.push(`${contract.path} ${response.statusCode} ${JSON.stringify(fields)} ${JSON.stringify(name)}`);
        if (answer.msg === TEXT_REFUSED_MSG) tally.refused += 1;
        return { status: response.statusCode, answer };
      };
      for (const key of Object.keys(base)) {
        for (const character of MULTIPART_REFUSED) {
          const { answer } = await post({ ...base, [key]: `${base[key]}${character}` }, 'scan.jpg');
          if (answer.msg !== TEXT_REFUSED_MSG) wrong.push(`${contract.path} ${key} ${JSON.stringify(character)} → ${answer.ret} ${answer.msg}`);
        }
      }
      for (const character of MULTIPART_REFUSED.slice(0, 6)) {
        const { answer } = await post({ ...base, [`x${character}`]: '1' }, 'scan.jpg');
        if (answer.msg !== TEXT_REFUSED_MSG) wrong.push(`${contract.path} field name ${JSON.stringify(character)} → ${answer.ret} ${answer.msg}`);
      }
      // File names are cleaned, never refused by the rule; odd field values are the routes' own errors.
      for (let round = 0; round < Math.max(ROUNDS, REFUSED_CHARACTERS.length); round += 1) {
        const name = pick([
          `护照${REFUSED_CHARACTERS[round % REFUSED_CHARACTERS.length]}首页.jpg`,
          `${'长'.repeat(500)}.jpg`,
          '../../etc/passwd',
          '',
          '.hidden',
          'a"b.jpg',
          '😀.jpg',
        ]);
        const fields = random() < 0.5 ? base : { ...base, [pick(Object.keys(base))]: String(oddValue()).slice(0, 20) };
        const { status, answer } = await post(fields, name);
        const refusedField = Object.entries(fields).some(
          ([key, value]) => textProblem(onTheWire(key)) !== null || textProblem(onTheWire(String(value))) !== null,
        );
        if (status >= 500 || refusedField !== (answer.msg === TEXT_REFUSED_MSG))
          wrong.push(`${contract.path} ${JSON.stringify(fields)} ${JSON.stringify(name)} → ${answer.ret} ${answer.msg}`);
      }
    }
    // Every stored file name passes the rule.
    const names = await t.db.selectFrom('order_material_file').select('file_name').execute();
    for (const { file_name } of names) if (textProblem(file_name) !== null) wrong.push(`stored file name ${JSON.stringify(file_name)}`);
    expect(tally.serverErrors).toEqual([]);
    expect(wrong).toEqual([]);
  }, 120_000);
});
