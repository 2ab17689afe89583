// The action buttons of an order card and of the order detail page, from the
// server's `actions` (common/order.ts orderActions): continue, pay, choose a
// new departure date, the processing steps' tasks, cancel. On the detail page
// an action's button shows only when the order view's allowed_events holds
// its lifecycle event (common/order.ts ACTION_EVENTS).
import { App, Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type OrderAction, type OrderEventName, actionAllowed } from '../../../common/order';
import { type OrderingStep, orderingPath } from '../../../common/ordering';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { actionsForRole, useTeamRole } from '../../lib/use-team-role';
import { ACTION_LABELS, actionPath, orderDetailPath } from './order-format';

export interface ActionableOrder {
  user_order_id: number;
  actions: OrderAction[];
  /** The detail's allowed events; the list's summaries lack them and follow `actions` alone. */
  allowed_events?: readonly OrderEventName[];
  /** Known on the detail page; the list's summaries lack it and ask for it on 'continue'. */
  ordering_step?: OrderingStep | null;
}

/** The one action the customer is most likely to want: shown as the primary button. */
const PRIMARY_ORDER: readonly OrderAction[] = [
  'choose_departure_date',
  'pay',
  'continue',
  'reupload',
  'mail_materials',
  'confirm_page_check',
  'pay_price_difference',
  'view_interview_notice',
];

export const CANCEL_CONFIRM_TITLE = '确定取消该订单吗？';
export const CANCELLED_TEXT = '订单已取消';

/** Confirm dialog, then the cancel call; `onDone` runs whatever the outcome, so the page shows the order as it is now. */
export function useCancelOrder() {
  const { modal } = App.useApp();
  return (userOrderId: number, onDone: () => void) => {
    modal.confirm({
      title: CANCEL_CONFIRM_TITLE,
      content: '取消后订单不可恢复，已上传的资料不会再被审核；如需办理请重新下单。',
      okText: '取消订单',
      cancelText: '再想想',
      okButtonProps: { danger: true, 'data-testid': 'order-cancel-confirm' } as ButtonProps,
      onOk: async () => {
        try {
          await api('/www/order/order_cancel', { user_order_id: userOrderId });
          toast.success(CANCELLED_TEXT);
        } catch {
          // api has shown the server's message (e.g. 订单已取消).
        }
        onDone();
      },
    });
  };
}

interface OrderActionsProps {
  order: ActionableOrder;
  /** After a cancel: reload. */
  onChanged: () => void;
  /** The detail page asks for the new date in place; the list links to the detail page. */
  onChooseDepartureDate?: () => void;
  /** The list's cards also link to the detail page. */
  showDetailLink?: boolean;
  size?: 'small' | 'middle';
}

export function OrderActions({ order, onChanged, onChooseDepartureDate, showDetailLink = false, size = 'middle' }: OrderActionsProps) {
  const navigate = useNavigate();
  const cancelOrder = useCancelOrder();
  const role = useTeamRole();
  const [resolving, setResolving] = useState(false);
  const id = order.user_order_id;
  // A 财务 sees only paying and reading (issue 29; the server refuses the rest with 2501).
  const actions = actionsForRole(role, order.actions).filter((action) => actionAllowed(action, order.allowed_events));
  const primary = PRIMARY_ORDER.find((action) => actions.includes(action));

  // Where a draft resumes is the detail's ordering_step; a card asks for it only when pressed.
  const continueOrder = async () => {
    if (order.ordering_step) {
      navigate(orderingPath(id, order.ordering_step));
      return;
    }
    setResolving(true);
    try {
      const detail = await api('/www/order/order_detail_get', { user_order_id: id });
      navigate(detail.ordering_step ? orderingPath(id, detail.ordering_step) : orderDetailPath(id));
    } catch {
      // api has shown the error.
    } finally {
      setResolving(false);
    }
  };

  const buttons = actions.map((action) => {
    const props = { size, type: action === primary ? 'primary' : 'default', 'data-testid': `order-action-${action}` } as const;
    if (action === 'cancel') {
      return (
        <Button key={action} {...props} type="default" onClick={() => cancelOrder(id, onChanged)}>
          {ACTION_LABELS.cancel}
        </Button>
      );
    }
    if (action === 'continue') {
      return (
        <Button key={action} {...props} loading={resolving} onClick={() => void continueOrder()}>
          {ACTION_LABELS.continue}
        </Button>
      );
    }
    if (action === 'choose_departure_date' && onChooseDepartureDate) {
      return (
        <Button key={action} {...props} onClick={onChooseDepartureDate}>
          {ACTION_LABELS.choose_departure_date}
        </Button>
      );
    }
    const path = actionPath(action, id);
    if (!path) return null;
    return (
      <Button key={action} {...props} onClick={() => navigate(path)}>
        {ACTION_LABELS[action]}
      </Button>
    );
  });

  if (buttons.every((button) => button === null) && !showDetailLink) return null;
  return (
    <div className="order-actions" data-testid="order-actions">
      {showDetailLink ? (
        <Button size={size} onClick={() => navigate(orderDetailPath(id))} data-testid="order-action-detail">
          查看详情
        </Button>
      ) : null}
      {buttons}
    </div>
  );
}
