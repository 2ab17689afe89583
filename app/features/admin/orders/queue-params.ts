// The queue's filters live in the page's URL (/admin/orders?step=…&page=2):
// a reload or a shared link shows the same list. Parsed leniently: a value
// that does not fit is dropped. A saved view (view=mine|due_soon|all, issue 27)
// is a preset: 我的待办 is assignee=me unless the URL names another assignee,
// 即将超时 adds the due-soon filter; a URL without any parameter shows the view
// the operator chose last (the route's loader passes it in).
import type { PayloadOf } from '../../../../common/contracts/define';
import type { adminOrderQueue } from '../../../../common/contracts/admin-order';
import { isAcceptableText } from '../../../../common/contracts/text';
import { ORDER_STEP_VALUES, type OrderStep } from '../../../../common/order';
import {
  QUEUE_COURIER_FILTER_VALUES,
  QUEUE_REFUND_FILTER_VALUES,
  QUEUE_VIEW_VALUES,
  type QueueCourierFilter,
  type QueueRefundFilter,
  type QueueView,
} from '../../../../common/review';

export type QueueQuery = PayloadOf<typeof adminOrderQueue> & { view?: QueueView };

/** The view a URL names, if any. */
export function queueViewOf(params: URLSearchParams): QueueView | undefined {
  const view = params.get('view');
  return QUEUE_VIEW_VALUES.find((value) => value === view);
}

/** The queue's payload of a page query (the view applied, the page's own `view` left out). */
export function queuePayload(query: QueueQuery): PayloadOf<typeof adminOrderQueue> {
  const { view, ...payload } = query;
  return view === 'due_soon' ? { ...payload, due_soon: true } : payload;
}

const positive = (value: string | null) => (value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : undefined);

export function queueQueryOf(params: URLSearchParams, savedView?: QueueView): QueueQuery {
  const view = queueViewOf(params) ?? (params.size === 0 ? savedView : undefined);
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
    assignee: assignee === 'none' || assignee === 'me' || assignee === 'all' ? assignee : (positive(assignee) ?? (view === 'mine' ? 'me' : 'all')),
    ...(q ? { q } : {}),
    ...(refund && (QUEUE_REFUND_FILTER_VALUES as string[]).includes(refund) ? { refund: refund as QueueRefundFilter } : {}),
    ...(courier && (QUEUE_COURIER_FILTER_VALUES as string[]).includes(courier) ? { courier: courier as QueueCourierFilter } : {}),
    ...(params.get('sort') === 'due_desc' ? { sort: 'due_desc' as const } : {}),
    ...(view ? { view } : {}),
    page: positive(params.get('page')) ?? 1,
  };
}

/** The URL of a query (default values left out). */
export function queueHref(query: QueueQuery): string {
  const params = new URLSearchParams();
  if (query.view) params.set('view', query.view);
  if (query.step) params.set('step', query.step);
  if (query.visa_country_id) params.set('country', String(query.visa_country_id));
  if (query.consular_district_id) params.set('district', String(query.consular_district_id));
  const assigneeOfView = query.view === 'mine' ? 'me' : 'all';
  if (query.assignee && query.assignee !== assigneeOfView) params.set('assignee', String(query.assignee));
  if (query.q) params.set('q', query.q);
  if (query.refund) params.set('refund', query.refund);
  if (query.courier) params.set('courier', query.courier);
  if (query.sort === 'due_desc') params.set('sort', query.sort);
  if (query.page && query.page !== 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `/admin/orders?${text}` : '/admin/orders';
}
