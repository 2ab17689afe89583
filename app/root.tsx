import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, type ShouldRevalidateFunctionArgs, useLocation, useRouteLoaderData } from 'react-router';
import { ANALYTICS_ENV } from '../common/constants';
import type { Route } from './+types/root';
import { ErrorPage } from './components/error-page';
import { HydrationBoundary } from './components/hydration-boundary';
import { SiteFooter } from './components/site-footer';
import { SiteHeader } from './components/site-header';
import { hasStoredLogin, startSession, useSession } from './lib/session';
import { configureApiClient } from './lib/api-client';
import { nonceScriptInsertedStyles, useCspNonce } from './lib/csp-nonce';
import { useLayoutFlags } from './lib/route-handle';
import { useToastsWanted } from './lib/toast';
import './app.css';

// zh-cn weeks start on Monday (spec §1).
dayjs.locale('zh-cn');
if (typeof document !== 'undefined') nonceScriptInsertedStyles();

export async function loader({ context }: Route.LoaderArgs) {
  const user = await context.currentUser();
  // The header bell's number, for a logged-in customer only (guest pages stay as cacheable as before).
  const reads = user ? await context.customerReads() : null;
  const unread = reads ? await reads.unreadNotices() : null;
  return { publicConfig: context.publicConfig, user, unreadNotices: unread?.ok ? unread.body.unread_count : null };
}

/** A logged-in customer's bell is read again on every move to another page (a guest's root never is). */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return defaultShouldRevalidate || (currentUrl.pathname !== nextUrl.pathname && hasStoredLogin());
}

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

export const meta: Route.MetaFunction = () => [
  { title: '易签通 - 在线签证办理' },
  {
    name: 'description',
    content: '易签通提供全球多国签证在线办理：查询领馆节假日、签证材料清单、办理流程、办理条件、费用与出行时间，在线上传资料、预约面签、支付并全程跟踪订单。',
  },
  { name: 'keywords', content: '签证办理,旅游签证,商务签证,探亲签证,签证材料,领馆节假日,签证费用' },
];

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const analytics = data?.publicConfig.appEnv === ANALYTICS_ENV ? data.publicConfig.analyticsScriptUrl : null;
  const nonce = useCspNonce();
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {analytics ? <script async src={analytics} nonce={nonce} data-testid="analytics" /> : null}
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

// antd's message API (all the app needs of antd's App) is loaded with the first toast.
const Toasts = lazy(() => import('./components/toasts'));

function ToastsWhenWanted() {
  return useToastsWanted() ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

// The login dialog (a form, inputs, a checkbox) is loaded the first time it opens.
const LoginDialog = lazy(() => import('./features/account/login-dialog').then((module) => ({ default: module.LoginDialog })));

function LoginDialogWhenOpened() {
  const { loginDialogOpen } = useSession();
  const [opened, setOpened] = useState(false);
  if (loginDialogOpen && !opened) setOpened(true);
  return opened ? (
    <Suspense fallback={null}>
      <LoginDialog />
    </Suspense>
  ) : null;
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { transparentHeader, hideFooter, bare } = useLayoutFlags();
  configureApiClient(loaderData.publicConfig);
  // Hydrated: a page painted before its JavaScript (app/lib/paint-first.ts) clicks again what was clicked meanwhile;
  // the end-to-end tests read the flag before they click (tests/e2e/support.ts, hydrated()).
  useEffect(() => {
    (window as { __appHydrated?: boolean }).__appHydrated = true;
    document.dispatchEvent(new Event('app:hydrated'));
  }, []);
  useEffect(() => {
    if (!bare) void startSession(loaderData.user);
  }, [loaderData.user, bare]);

  // The back office brings its own shell (app/features/admin).
  if (bare) {
    return (
      <>
        <Toasts />
        <Outlet />
      </>
    );
  }

  return (
    <>
      <ToastsWhenWanted />
      <div className="site">
        <SiteHeader transparent={transparentHeader} />
        <main className="site-main">
          <Outlet />
        </main>
        {hideFooter ? null : (
          <HydrationBoundary>
            <SiteFooter />
          </HydrationBoundary>
        )}
      </div>
      <LoginDialogWhenOpened />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { pathname } = useLocation();
  // The site's pages fail inside the site's layout (header, footer: ways back); the back office keeps its bare page.
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return <ErrorPage error={error} pathname={pathname} />;
  return (
    <div className="site">
      <SiteHeader transparent={false} />
      <main className="site-main">
        <ErrorPage error={error} pathname={pathname} />
      </main>
      <SiteFooter />
    </div>
  );
}
