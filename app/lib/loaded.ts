// What a login-only page's loader makes of an in-process read's answer
// (common/web-context.ts ReadAnswer): the result, or a thrown route error
// response for the page's ErrorBoundary (app/components/load-error-boundary.tsx):
//   1801 订单不存在 (missing, or another enterprise's)  → 404, "not found"
//   1001 the call refuses the route's id (too large)    → spec 2.7's 404 page
//   2003 a page the operator's role may not open        → 403 (the back office's 403 page)
//   any other refusal (e.g. the order has no district) → 409, the server's message
// A read that fails outright (the database is down) rejects instead: React
// Router answers 500 and the boundary shows "failed" with a retry.
import { data } from 'react-router';
import { ErrorCode } from '../../common/error-codes';
import type { ReadAnswer } from '../../common/web-context';
import { ROUTE_VALIDATION_FAILED } from './route-params';

/** The data of a refusal response: the call's error code and Chinese message. */
export interface Refusal {
  ret: number;
  msg: string;
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && typeof (value as Refusal).ret === 'number' && typeof (value as Refusal).msg === 'string';
}

export function loaded<T>(answer: ReadAnswer<T>): T {
  if (answer.ok) return answer.body;
  if (answer.ret === ErrorCode.INVALID_PARAMS) throw data(ROUTE_VALIDATION_FAILED, { status: 404, statusText: 'Page Not Found' });
  throw data<Refusal>({ ret: answer.ret, msg: answer.msg }, { status: statusOf(answer.ret) });
}

function statusOf(ret: number): number {
  if (ret === ErrorCode.ORDER_NOT_FOUND) return 404;
  if (ret === ErrorCode.OPERATOR_FORBIDDEN) return 403;
  return 409;
}
