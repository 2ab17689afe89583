// The back office's pages' reads (common/web-context.ts OperatorReads): the
// /admin-api calls' own steps, in process, for the operator of the page
// request's `admin_token` cookie — the same services and the same refusals
// (2003 for a supervisor-only read by an operator) as the signed calls.
// Other back-office areas add their reads here.
import { ErrorCode } from '../../common/error-codes.ts';
import type { OperatorInfo } from '../../common/contracts/operator.ts';
import type { OperatorReads, ReadAnswer } from '../../common/web-context.ts';
import type { OperatorService } from '../modules/operator/operator.service.ts';
import { AppError } from '../platform/errors.ts';
import type { Operator } from '../platform/principal.ts';

export interface OperatorReadServices {
  operator: OperatorService;
}

async function read<T>(run: () => Promise<T>): Promise<ReadAnswer<T>> {
  try {
    return { ok: true, body: await run() };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, ret: error.ret, msg: error.message };
    throw error;
  }
}

/** A supervisor-only read refuses an operator as its call does. */
function supervisorOnly(caller: Operator): void {
  if (caller.role !== 'supervisor') throw new AppError(ErrorCode.OPERATOR_FORBIDDEN);
}

export function operatorReads(services: OperatorReadServices, caller: Operator, me: OperatorInfo): OperatorReads {
  return {
    me,
    operatorList: () =>
      read(async () => {
        supervisorOnly(caller);
        return { list: await services.operator.list() };
      }),
  };
}
