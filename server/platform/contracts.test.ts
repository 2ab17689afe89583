// One contract per call: the registry (common/contracts) and the server's
// routes are the same set, each operation validates with its contract's own
// payload schema, and the reference documents the contract's result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Contract } from '../../common/contracts/define.ts';
import { ADMIN_CONTRACTS, WWW_CONTRACTS } from '../../common/contracts/index.ts';
import Fastify from 'fastify';
import { defineOperation, registerOperation } from './operation.ts';
import { operatorMe } from '../../common/contracts/operator.ts';
import { userInfoQuery } from '../../common/contracts/account.ts';
import { createTestApp, type TestApp } from '../test-support/test-app.ts';

type OpenApi = { paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, any> } }> };

let t: TestApp;
let spec: OpenApi;
const contracts = Object.values(WWW_CONTRACTS as Record<string, Contract>);
const adminContracts = Object.values(ADMIN_CONTRACTS as Record<string, Contract>);

beforeAll(async () => {
  t = await createTestApp();
  spec = t.app.swagger() as unknown as OpenApi;
});
afterAll(async () => {
  await t.close();
});

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
};

describe('the /www registry and the server', () => {
  it('registers every contract of the registry, and no /www call without one', () => {
    const served = Object.keys(spec.paths).filter((path) => path.startsWith('/www/') && spec.paths[path]!.post);
    expect(served.sort()).toEqual(contracts.map((contract) => contract.path).sort());
  });

  it("documents each JSON call with its contract's payload and result schemas", () => {
    for (const contract of contracts.filter((c) => c.body === 'json')) {
      const post = spec.paths[contract.path]!.post!;
      expect(post.requestBody!.content['application/json']!.schema, contract.path).toEqual(jsonSchema(contract.payload, 'input'));
      const body = post.responses['200'].content['application/json'].schema.properties.body;
      expect({ ...body, nullable: undefined }, contract.path).toEqual({ ...jsonSchema(contract.result, 'output'), nullable: undefined });
    }
  });

  it("refuses a payload its contract refuses, before the handler runs (1001), and answers ret 0 bodies that parse with the contract's result", async () => {
    const bad = await t.call('/www/visa_product_detail_get', { visa_product_id: 'twelve' });
    expect(bad.body.ret).toBe(1001);
    const config = await t.callContract(WWW_CONTRACTS['/www/sys_config_get'], {});
    expect(config.body.ret).toBe(0);
    expect(config.result?.address_root_region).toBe('86');
  });
});

describe('the /admin-api registry and the server', () => {
  it('registers every back-office contract, and no /admin-api call without one', () => {
    const served = Object.keys(spec.paths).filter((path) => path.startsWith('/admin-api/') && spec.paths[path]!.post);
    expect(served.sort()).toEqual(adminContracts.map((contract) => contract.path).sort());
    for (const contract of adminContracts) expect(contract.path).toMatch(/^\/admin-api\//);
  });

  it('refuses to register an operation whose auth does not fit its prefix', () => {
    const app = Fastify();
    const handle = async () => ({}) as never;
    expect(() => registerOperation(app, defineOperation({ ...operatorMe, tag: 't', summary: 's', auth: 'customer', errors: [], handle }))).toThrow(
      /does not fit/,
    );
    expect(() => registerOperation(app, defineOperation({ ...userInfoQuery, tag: 't', summary: 's', auth: 'operator', errors: [], handle }))).toThrow(
      /does not fit/,
    );
    expect(() => registerOperation(app, defineOperation({ ...userInfoQuery, tag: 't', summary: 's', auth: 'supervisor', errors: [], handle }))).toThrow(
      /does not fit/,
    );
  });
});
