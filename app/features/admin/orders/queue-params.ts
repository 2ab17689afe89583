// The queue's filters live in the page's URL (/admin/orders?step=…&page=2):
// a reload or a shared link shows the same list. Parsed leniently: a value
// that does not fit is dropped.
import type { PayloadOf } from '../../../../common/contracts/define';
import type { adminOrderQueue } from '../../../../common/contracts/admin-order';
import { isAcceptableText } from '../../../../common/contracts/text';
import { ORDER_STEP_VALUES, type OrderStep } from '../../../../common/order';
import { QUEUE_COURIER_FILTER_VALUES, QUEUE_REFUND_FILTER_VALUES, type QueueCourierFilter, type QueueRefundFilter } from '../../../../common/review';

export type QueueQuery = PayloadOf<typeof adminOrderQueue>;

const positive = (value: string | null) => (value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : undefined);

export function queueQueryOf(params: URLSearchParams): QueueQuery {
  const step = params.get('step');
  const assignee = params.get('assignee');
  // A search text the API's text rule refuses (a NUL, a direction override…) is dropped too;
  // the cut at 30 does not split an emoji (that would leave half of it, a lone surrogate).
  const typed = params
    .get('q')
    ?.trim()
    .slice(0, 30)
    .replace(/[\uD800-\uDBFF]$/, '');
  const q = typed && isAcceptableText(typed) ? typed : undefined;
  const refund = params.get('refund');
  const courier = params.get('courier');
  return {
    ...(step && (ORDER_STEP_VALUES as string[]).includes(step) ? { step: step as OrderStep } : {}),
    ...(positive(params.get('country')) ? { visa_country_id: positive(params.get('country')) } : {}),
    ...(positive(params.get('district')) ? { consular_district_id: positive(params.get('district')) } : {}),
    assignee: assignee === 'none' || assignee === 'me' ? assignee : (positive(assignee) ?? 'all'),
    ...(q ? { q } : {}),
    ...(refund && (QUEUE_REFUND_FILTER_VALUES as string[]).includes(refund) ? { refund: refund as QueueRefundFilter } : {}),
    ...(courier && (QUEUE_COURIER_FILTER_VALUES as string[]).includes(courier) ? { courier: courier as QueueCourierFilter } : {}),
    page: positive(params.get('page')) ?? 1,
  };
}

/** The URL of a query (default values left out). */
export function queueHref(query: QueueQuery): string {
  const params = new URLSearchParams();
  if (query.step) params.set('step', query.step);
  if (query.visa_country_id) params.set('country', String(query.visa_country_id));
  if (query.consular_district_id) params.set('district', String(query.consular_district_id));
  if (query.assignee && query.assignee !== 'all') params.set('assignee', String(query.assignee));
  if (query.q) params.set('q', query.q);
  if (query.refund) params.set('refund', query.refund);
  if (query.courier) params.set('courier', query.courier);
  if (query.page && query.page !== 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `/admin/orders?${text}` : '/admin/orders';
}
