// Route parameter validation (spec 2.7): a parameter that fails it answers
// 404 'Page Not Found: {path}', told apart from an unmatched route.
import { data } from 'react-router';

export const ROUTE_VALIDATION_FAILED = 'route-validation-failed';

/** A positive integer id such as visa_product_id or userOrderId, or a 404. */
export function requireNumericParam(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) throw data(ROUTE_VALIDATION_FAILED, { status: 404, statusText: 'Page Not Found' });
  return Number(value);
}
