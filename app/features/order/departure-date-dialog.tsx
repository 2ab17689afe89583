// The 'departure date past' dialog of spec 2.4 / §4: the order's departure
// date has passed before the application reached the embassy, so the
// customer chooses a new one. Also opened by the 修改出发日期 button.
import { Alert, Button, DatePicker, Form } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState } from 'react';
import { ORDER_LIMITS } from '../../../common/contracts/rules';
import { addDays, chinaDate } from '../../../common/order';
import { AppDialog } from '../../components/app-dialog';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';

interface DepartureDateDialogProps {
  open: boolean;
  onClose: () => void;
  order: { user_order_id: number; departure_date: string; order_date: string; departure_date_past: boolean };
  /** After a successful change: reload the order. */
  onChanged: () => void;
}

export const DEPARTURE_UPDATED_TEXT = '出发日期已更新';

/** The first day the new departure date may be: today, or the order date when that is still to come (server rule). */
export function earliestNewDeparture(orderDate: string, today: string): string {
  return orderDate > today ? orderDate : today;
}

export function DepartureDateDialog({ open, onClose, order, onChanged }: DepartureDateDialogProps) {
  const [form] = Form.useForm<{ departure_date: Dayjs }>();
  const [saving, setSaving] = useState(false);
  const today = chinaDate(Date.now());
  const min = earliestNewDeparture(order.order_date, today);
  const max = addDays(today, ORDER_LIMITS.maxDepartureDaysAhead);

  const submit = async ({ departure_date }: { departure_date: Dayjs }) => {
    setSaving(true);
    try {
      const result = await api('/www/order/order_departure_date_update', {
        user_order_id: order.user_order_id,
        departure_date: departure_date.format('YYYY-MM-DD'),
      });
      toast.success(DEPARTURE_UPDATED_TEXT);
      if (result.departure_warning) toast.warning(result.departure_warning.message, 8);
      form.resetFields();
      onClose();
      onChanged();
    } catch {
      // api has shown the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={order.departure_date_past ? '出发日期已过' : '修改出发日期'}
      subtitle="订单尚未递交使馆，请选择新的出发日期"
      width={480}
      destroyOnHidden
      footer={
        <>
          <Button onClick={onClose}>稍后再说</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="departure-date-save">
            确定
          </Button>
        </>
      }
    >
      <div data-testid="departure-date-dialog">
        {order.departure_date_past ? (
          <Alert
            type="warning"
            showIcon
            className="order-dialog-alert"
            title={`原出发日期 ${order.departure_date} 已过，签证的办理和保险都以出发日期为准，请重新选择。`}
          />
        ) : null}
        <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void submit(values)}>
          <Form.Item name="departure_date" label="新的出发日期" rules={[{ required: true, message: '请选择出发日期' }]}>
            <DatePicker
              style={{ width: '100%' }}
              placeholder="请选择出发日期"
              inputReadOnly
              disabledDate={(day) => {
                const date = day.format('YYYY-MM-DD');
                return date < min || date > max;
              }}
              defaultPickerValue={dayjs(min)}
              data-testid="departure-date-dialog-picker"
            />
          </Form.Item>
        </Form>
      </div>
    </AppDialog>
  );
}
