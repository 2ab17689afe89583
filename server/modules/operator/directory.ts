// The back office's staff as the modules that name them see it: names for the
// queue, the workbench and the event log, and whether an operator can be
// given an order. It lives with the operator accounts (issue 9, OPS) at the
// bottom of the modules, so review, refund and price difference read it
// without importing each other (app.ts passes directoryOf(operators.list)).
import type { OperatorRole } from '../../../common/contracts/operator.ts';
import { staffMay } from '../../../common/staff-access.ts';

export interface OperatorRef {
  operator_id: number;
  name: string;
}

export interface OperatorDirectory {
  /** Names of these operators (unknown ids are left out). */
  names(ids: readonly number[]): Promise<Map<number, string>>;
  /** Is this an active operator who does order work (an order may be assigned to them; never a 产品编辑)? */
  isActive(operatorId: number): Promise<boolean>;
  /** Every active operator who does order work, for the queue's assignee filter and the supervisor's assign picker. */
  list(): Promise<OperatorRef[]>;
}

/** Until the operator accounts exist: every id is an operator named by its number. */
export const NUMBERED_OPERATORS: OperatorDirectory = {
  names: async (ids) => new Map(ids.map((id) => [id, `人员${id}`])),
  isActive: async (id) => id > 0,
  list: async () => [],
};

/** The directory over the operator accounts (a supervisor's list: a few dozen rows, read per call). */
type DirectoryRow = { operator_id: number; name: string; status: string; role?: OperatorRole };

/** Active, and a role that works on orders (common/staff-access.ts: not a 产品编辑, issue 26); a row without its role counts. */
function takesOrders(row: DirectoryRow): boolean {
  return row.status === 'active' && (row.role === undefined || staffMay(row.role, 'operator'));
}

export function directoryOf(list: () => Promise<DirectoryRow[]>): OperatorDirectory {
  return {
    async names(ids) {
      if (ids.length === 0) return new Map();
      const wanted = new Set(ids);
      return new Map((await list()).filter((row) => wanted.has(row.operator_id)).map((row) => [row.operator_id, row.name]));
    },
    async isActive(operatorId) {
      return (await list()).some((row) => row.operator_id === operatorId && takesOrders(row));
    },
    async list() {
      return (await list()).filter(takesOrders).map(({ operator_id, name }) => ({ operator_id, name }));
    },
  };
}

export function nameOf(names: Map<number, string>, id: number | null): OperatorRef | null {
  return id === null ? null : { operator_id: id, name: names.get(id) ?? `人员${id}` };
}
