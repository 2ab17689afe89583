// /notice (login only): the customer's notices, newest first, 10 a page. The
// loader reads the page of the URL in process as the session's customer
// (app/features/notice); marking read revalidates it and the header's bell.
import { redirect } from 'react-router';
import { NOTICE_PAGE_SIZE } from '../../common/contracts/notice';
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { NoticePage } from '../features/notice/notice-page';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import type { Route } from './+types/notice';

export const meta: Route.MetaFunction = () => [{ title: '消息通知 - 易签通' }];

function parsePage(value: string | null): number {
  const page = Number(value ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const reads = await requireCustomer(context);
  const page = parsePage(new URL(request.url).searchParams.get('page'));
  const list = loaded(await reads.notices(page));
  // Past the last page (an old link): the last page.
  const last = Math.max(1, Math.ceil(list.total_count / NOTICE_PAGE_SIZE));
  if (page > last) throw redirect(last === 1 ? '/notice' : `/notice?page=${last}`);
  return { page, list };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <NoticePage page={loaderData.page} list={loaderData.list} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="消息" />;
}
