// /ordering/create-order?visa_product_id=…&visa_country_id=… (spec 2.1,
// footer hidden). The loader reads the product and its country's consular
// districts in process and preselects the visitor's district; the order is
// created from the browser with the session's token.
import '../features/ordering/create/create-order.css';

import { chinaDate } from '../../common/order';
import { CreateOrderForm } from '../features/ordering/create/create-order-form';
import { createOrderView, missingProductView, productIdParam } from '../features/ordering/create/create-order-model';
import { CreateOrderProblem } from '../features/ordering/create/create-order-problem';
import { savedTravellers } from '../features/travellers/saved-travellers';
import { SaveTravellerFields, saveTravellersAfterOrder } from '../features/travellers/save-traveller-fields';
import { TravellerPicker } from '../features/travellers/traveller-picker';
import { requireUser } from '../lib/require-user';
import type { Route } from './+types/create-order';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '创建订单 - 易签通' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context);
  const today = chinaDate(Date.now());
  const productId = productIdParam(new URL(request.url).searchParams);
  if (productId === null) return { view: missingProductView(), today, travellers: [] };
  const product = await context.catalogue.productDetail(productId);
  // The product's own country, whatever visa_country_id the link says.
  const country = product ? await context.catalogue.country(product.visa_country_id) : null;
  return {
    view: createOrderView(productId, product, country, context.provinces(), context.visitorProvince()),
    today,
    travellers: await savedTravellers(context),
  };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  const { view, today, travellers } = loaderData;
  return (
    <div className="co-page" data-testid="create-order-page">
      <div className="co-body">
        <h1 className="co-title">填写订单</h1>
      </div>
      {view.kind === 'ready' ? (
        <CreateOrderForm
          key={view.product.visa_product_id}
          view={view}
          today={today}
          beforeApplicants={(form) => <TravellerPicker form={form} travellers={travellers} />}
          applicantExtra={(form, index) => <SaveTravellerFields form={form} index={index} travellers={travellers} />}
          afterCreate={(applicants) => saveTravellersAfterOrder(applicants, travellers)}
        />
      ) : (
        <div className="co-body">
          <CreateOrderProblem problem={view} />
        </div>
      )}
    </div>
  );
}
