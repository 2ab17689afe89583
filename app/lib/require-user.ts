// Login-only pages (spec §6) check the session in their loaders, on the
// server too: a guest gets a 401 that the require-login layout turns into the
// login dialog, never another customer's data.
import { type AppLoadContext, data } from 'react-router';
import type { UserInfo } from '../../common/web-context';

export const LOGIN_REQUIRED = 'login-required';

export async function requireUser(context: AppLoadContext): Promise<UserInfo> {
  const user = await context.currentUser();
  if (!user) throw data(LOGIN_REQUIRED, { status: 401 });
  return user;
}
