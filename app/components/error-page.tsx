import { isRouteErrorResponse } from 'react-router';
import { ROUTE_VALIDATION_FAILED } from '../lib/route-params';

/** Spec 2.7: unmatched routes and failed route validation are 404s; anything else is a 500. */
export function ErrorPage({ error, pathname }: { error: unknown; pathname: string }) {
  let status = 500;
  let text = 'Internal Server Error';
  if (isRouteErrorResponse(error) && error.status === 404) {
    status = 404;
    text = error.data === ROUTE_VALIDATION_FAILED ? `Page Not Found: ${pathname}` : `Page not found: ${pathname}`;
  }
  return (
    <div className="error-page" data-status={status}>
      <div className="error-page-code">{status}</div>
      <h1 className="error-page-text">{text}</h1>
      <a className="error-page-home" href="/">
        返回首页
      </a>
    </div>
  );
}
