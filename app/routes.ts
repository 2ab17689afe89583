// The route table of spec 2.1. Each screen is one module in app/routes/.
// Login-only areas (/order/, /ordering/, the personal centre) sit under the
// require-login layout, which checks the session on the server too.
import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('about', 'routes/about.tsx'),
  route('cooperation', 'routes/cooperation.tsx'),
  route('enterprise', 'routes/enterprise.tsx'),
  route('download', 'routes/download.tsx'),
  route('open/ToChina', 'routes/open-to-china.tsx'),
  route('agreement/user', 'routes/user-agreement.tsx'),
  route('visa/continent', 'routes/visa-continent.tsx'),
  route('visa/country/:id', 'routes/visa-country.tsx'),
  route('visa/product/:id', 'routes/visa-product.tsx'),
  route('dev/components', 'routes/dev-components.tsx'),
  route('team/join', 'routes/team-join.tsx'),
  layout('routes/require-login-layout.tsx', [
    route('order/order-list', 'routes/order-list.tsx'),
    route('order/order-detail/:userOrderId', 'routes/order-detail.tsx'),
    route('order/order-reupload/:userOrderId', 'routes/order-reupload.tsx'),
    route('order/order-mail-list/:userOrderId', 'routes/order-mail-list.tsx'),
    route('order/order-page-check/:userOrderId', 'routes/order-page-check.tsx'),
    route('order/order-interview-notification/:userOrderId', 'routes/order-interview-notification.tsx'),
    route('user/personal-center', 'routes/personal-center.tsx'),
    route('user/team', 'routes/team-members.tsx'),
    route('user/travellers', 'routes/travellers.tsx'),
    route('notice', 'routes/notice.tsx'),
    route('user/invoice', 'routes/invoice-list.tsx'),
    route('ordering/create-order', 'routes/create-order.tsx'),
    route('ordering/upload/:userOrderId', 'routes/ordering-upload.tsx'),
    route('ordering/order-confirm/:userOrderId', 'routes/order-confirm.tsx'),
    route('ordering/choose-interview-time/:userOrderId', 'routes/choose-interview-time.tsx'),
  ]),
  // The back office (decision 0017): its own login and session; the layout redirects without one.
  route('admin/login', 'routes/admin/login.tsx'),
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/home.tsx'),
    route('orders', 'routes/admin/orders.tsx'),
    route('orders/:userOrderId', 'routes/admin/order-workbench.tsx'),
    route('access-log', 'routes/admin/access-log.tsx'),
    route('operators', 'routes/admin/operators.tsx'),
    route('reconciliation', 'routes/admin/reconciliation.tsx'),
    route('invoices', 'routes/admin/invoices.tsx'),
    route('catalogue', 'routes/admin/catalogue.tsx'),
    route('catalogue/edit', 'routes/admin/catalogue-edit.tsx'),
    route('catalogue/slots', 'routes/admin/catalogue-slots.tsx'),
    route('catalogue/reviews', 'routes/admin/catalogue-reviews.tsx'),
    route('catalogue/countries', 'routes/admin/catalogue-countries.tsx'),
    route('catalogue/countries/edit', 'routes/admin/catalogue-country-edit.tsx'),
  ]),
] satisfies RouteConfig;
