// Who is asking — the one type for "the caller" on the server. Customers are
// enterprise accounts (an order belongs to the enterprise); operators are the
// visa service's staff (never a customer account); the system is timers and
// provider callbacks. Services take a principal and scope what they read by it.

export interface Customer {
  kind: 'customer';
  accountId: number;
  enterpriseId: number;
}

/** 操作员, 主管 and 产品编辑 (issue 26); what each may call: common/staff-access.ts. */
export type OperatorRole = 'operator' | 'supervisor' | 'catalogue_editor';

export interface Operator {
  kind: 'operator';
  operatorId: number;
  role: OperatorRole;
}

export interface System {
  kind: 'system';
}

export type Principal = Customer | Operator | System;

export const SYSTEM: System = { kind: 'system' };

export function customer(accountId: number, enterpriseId: number): Customer {
  return { kind: 'customer', accountId, enterpriseId };
}

/** The actor and actor id an audit row records for a principal. */
export function actorOf(principal: Principal): { actor: Principal['kind']; actor_id: number | null } {
  switch (principal.kind) {
    case 'customer':
      return { actor: 'customer', actor_id: principal.accountId };
    case 'operator':
      return { actor: 'operator', actor_id: principal.operatorId };
    case 'system':
      return { actor: 'system', actor_id: null };
  }
}
