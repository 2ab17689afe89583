// The README's demo logins work: the one spec that uses the demo accounts,
// because the demo seed is what it tests (every other spec makes its own
// customers and operators, decision 0020). The e2e server runs in demo mode,
// so the seed has run; each account of the README's two tables — read from
// README.md itself, so README and seed cannot drift apart unnoticed — logs
// in: a customer with the signed login call (the dialog is account.spec.ts's)
// and is the README's enterprise, a staff member at /admin/login with the
// README's TOTP secret, in a browser context of its own, and has the README's
// role. (That production seeds none of it: account.spec.ts.)
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { OPERATOR_ROLE_LABELS } from '../../common/contracts/operator';
import { apiCall, apiLogin, freshTotpCode, hydrated } from './support';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const cells = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1'));

/** The demo enterprises table: | enterprise (kind) | `account` | `password` | */
const DEMO_CUSTOMERS = README.split('\n')
  .filter((line) => /^\| [^|]+ \((company|agency)\) \| `[^`]+` \| `[^`]+` \|$/.test(line))
  .map((line) => {
    const [enterprise, account, password] = cells(line) as [string, string, string];
    const [, name, kind] = /^(.+) \((company|agency)\)$/.exec(enterprise)!;
    return { enterprise: name!, kind: kind!, account, password };
  });

/** The demo staff table: | 操作员 (operator) | `account` | `password` | `TOTP secret` | */
const DEMO_STAFF = README.split('\n')
  .filter((line) => /^\| [^|]+ \((operator|supervisor)\) \| `[^`]+` \| `[^`]+` \| `[A-Z2-7]+` \|$/.test(line))
  .map((line) => {
    const [role, account, password, totpSecret] = cells(line) as [string, string, string, string];
    return { role: /\((operator|supervisor)\)$/.exec(role)![1] as keyof typeof OPERATOR_ROLE_LABELS, account, password, totpSecret };
  });

test("the README's demo enterprises' administrators log in, each of the README's enterprise", async ({ baseURL }) => {
  expect(DEMO_CUSTOMERS.map((c) => c.account)).toEqual(['demo_admin', 'agency_admin']);
  for (const { enterprise, kind, account, password } of DEMO_CUSTOMERS) {
    const { token } = await apiLogin(baseURL!, account, password);
    const user = await apiCall<{ account: string; enterprise: { name: string; kind: string } }>(baseURL!, '/www/user/user_info_query', {}, token);
    expect(user).toMatchObject({ account, enterprise: { name: enterprise, kind } });
  }
});

test("the README's demo staff log in at /admin/login with the README's TOTP secrets", async ({ browser }) => {
  expect(DEMO_STAFF.map((s) => s.account)).toEqual(['demo_operator', 'demo_supervisor']);
  for (const { role, account, password, totpSecret } of DEMO_STAFF) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('/admin/login');
    await hydrated(page);
    await page.getByLabel('账号').fill(account);
    await page.getByLabel('密码').fill(password);
    await page.getByLabel('动态验证码').fill(await freshTotpCode(account, totpSecret));
    await expect(page.getByLabel('账号')).toHaveValue(account);
    await page.getByRole('button', { name: '登录' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByTestId('admin-operator')).toContainText(OPERATOR_ROLE_LABELS[role]);
    await context.close();
  }
});
