// The back office's in-process reads answer what their calls answer: the list
// for a supervisor, the call's refusal (2003) for an operator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/test-app.ts';
import { operatorReads } from './operator-reads.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('operatorReads', () => {
  it('lists operators for a supervisor and refuses an operator as the call does', async () => {
    const supervisor = await t.operator({ role: 'supervisor' });
    const op = await t.operator();
    const asSupervisor = operatorReads(t.services, supervisor.principal, await t.services.operator.me(supervisor.principal));
    const list = await asSupervisor.operatorList();
    expect(list.ok && list.body.list.map((row) => row.account)).toEqual(expect.arrayContaining([supervisor.account, op.account]));
    expect(asSupervisor.me).toMatchObject({ operator_id: supervisor.operatorId, role: 'supervisor' });

    const asOperator = operatorReads(t.services, op.principal, await t.services.operator.me(op.principal));
    expect(await asOperator.operatorList()).toEqual({ ok: false, ret: 2003, msg: '仅主管可以执行此操作' });
    expect(await (await t.call('/admin-api/operator/operator_list', {}, { token: op.token })).body).toEqual({
      ret: 2003,
      msg: '仅主管可以执行此操作',
      body: null,
    });
  });
});
