// Back-office loaders check the admin_token session on the server: without
// one (none, expired, disabled) every /admin page redirects to /admin/login,
// remembering where it was going.
import { type AppLoadContext, redirect } from 'react-router';
import type { OperatorInfo } from '../../../common/contracts/operator';
import type { OperatorReads } from '../../../common/web-context';
import { ADMIN_LOGIN } from './admin-api';

function toLogin(request: Request): never {
  const url = new URL(request.url);
  const next = `${url.pathname}${url.search}`;
  throw redirect(next === '/admin' ? ADMIN_LOGIN : `${ADMIN_LOGIN}?next=${encodeURIComponent(next)}`);
}

export async function requireOperator(context: AppLoadContext, request: Request): Promise<OperatorInfo> {
  return (await context.currentOperator()) ?? toLogin(request);
}

export async function requireOperatorReads(context: AppLoadContext, request: Request): Promise<OperatorReads> {
  return (await context.operatorReads()) ?? toLogin(request);
}
