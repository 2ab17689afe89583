// Login-only pages (spec §6) check the session in their loaders, on the
// server too: a guest gets a 401 that the page's error boundary turns into
// the login dialog (app/components/load-error-boundary.tsx), never another
// customer's data.
import { type AppLoadContext, data } from 'react-router';
import type { UserInfo } from '../../common/contracts/account';
import type { CustomerReads } from '../../common/web-context';

export const LOGIN_REQUIRED = 'login-required';

function loginRequired(): never {
  throw data(LOGIN_REQUIRED, { status: 401 });
}

export async function requireUser(context: AppLoadContext): Promise<UserInfo> {
  return (await context.currentUser()) ?? loginRequired();
}

/** The reads of the session's customer (their enterprise's orders only), or the 401. */
export async function requireCustomer(context: AppLoadContext): Promise<CustomerReads> {
  return (await context.customerReads()) ?? loginRequired();
}
