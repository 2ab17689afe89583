import { isRouteErrorResponse } from 'react-router';
import { ROUTE_VALIDATION_FAILED } from '../lib/route-params';

/** A product page that answers 404: the product is missing or delisted (issue 27). */
const PRODUCT_PATH = /^\/visa\/product\//;

/**
 * Spec 2.7: unmatched routes and failed route validation are 404s; anything else is a 500.
 * The 404 keeps the spec's text and offers the ways back: the catalogue, a country search
 * (a plain GET form, so it works before JavaScript) and the home page.
 */
export function ErrorPage({ error, pathname }: { error: unknown; pathname: string }) {
  let status = 500;
  let text = 'Internal Server Error';
  if (isRouteErrorResponse(error) && error.status === 404) {
    status = 404;
    text = error.data === ROUTE_VALIDATION_FAILED ? `Page Not Found: ${pathname}` : `Page not found: ${pathname}`;
  }
  const notFound = status === 404;
  return (
    <div className="error-page" data-status={status}>
      <div className="error-page-code">{status}</div>
      <h1 className="error-page-text">{text}</h1>
      {notFound ? (
        <>
          <p className="error-page-hint" data-testid="error-page-hint">
            {PRODUCT_PATH.test(pathname) ? '该签证产品不存在或已下架，请在签证办理中查看其他产品。' : '您访问的页面不存在，可能已被移除或地址有误。'}
          </p>
          <form method="get" action="/visa/continent" role="search" className="error-page-search">
            <input type="search" name="q" aria-label="搜索国家" placeholder="搜索国家，如：日本" autoComplete="off" />
            <button type="submit">搜索</button>
          </form>
          <nav className="error-page-links" aria-label="返回">
            <a href="/visa/continent">签证办理</a>
            <a href="/">返回首页</a>
          </nav>
        </>
      ) : (
        <a className="error-page-home" href="/">
          返回首页
        </a>
      )}
    </div>
  );
}
