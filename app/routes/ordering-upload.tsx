// /ordering/upload/:userOrderId (spec 2.1, footer hidden): the checklist of
// each applicant's identity and its uploads, read and written in the browser
// with the session's token (app/features/ordering/upload).
import { UploadPage } from '../features/ordering/upload/upload-page';
import { requireUser } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/ordering-upload';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '上传资料 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  await requireUser(context);
  return { userOrderId };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  // Keyed: another order starts afresh.
  return <UploadPage key={loaderData.userOrderId} userOrderId={loaderData.userOrderId} />;
}
