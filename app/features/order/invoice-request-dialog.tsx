// 申请发票 (issue 29): for the orders ticked on the order list. On opening it
// reads what each order can still be invoiced for and the enterprise's last
// details (filled in as the defaults); the server enforces the amounts.
import { Form, Input, Modal, Table } from 'antd';
import { useEffect, useState } from 'react';
import type { InvoiceableOrder } from '../../../common/contracts/invoice';
import { EMAIL_PATTERN } from '../../../common/contracts/rules';
import { formatPrice } from '../../../common/format';
import { INVOICE_LIMITS, isCreditCode, normalizeTaxId } from '../../../common/invoice';
import { ApiError, api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import './order.css';

interface Fields {
  title: string;
  tax_id: string;
  address_phone: string;
  bank_account: string;
  email: string;
}

export function InvoiceRequestDialog({ open, orderIds, onClose, onDone }: { open: boolean; orderIds: number[]; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<Fields>();
  const [orders, setOrders] = useState<InvoiceableOrder[] | null>(null);
  const [busy, setBusy] = useState(false);
  const key = orderIds.join(',');

  useEffect(() => {
    if (!open) return;
    let live = true;
    setOrders(null);
    api('/www/invoice/invoiceable_orders', { user_order_ids: key.split(',').map(Number) }, { toast: false })
      .then((answer) => {
        if (!live) return;
        setOrders(answer.orders);
        if (answer.profile) form.setFieldsValue(answer.profile);
      })
      .catch((error: unknown) => {
        if (!live) return;
        toast.error(error instanceof ApiError ? error.message : '读取订单失败，请重试');
        onClose();
      });
    return () => {
      live = false;
    };
  }, [open, key, form, onClose]);

  const invoiceable = (orders ?? []).filter((order) => order.invoiceable > 0);
  const total = invoiceable.reduce((sum, order) => sum + order.invoiceable, 0);

  async function submit(fields: Fields) {
    setBusy(true);
    try {
      await api('/www/invoice/invoice_request', { ...fields, orders: invoiceable.map((order) => ({ user_order_id: order.user_order_id })) }, { toast: false });
      toast.success('已提交发票申请，开具后会通知您');
      onDone();
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : '提交失败，请重试');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      title="申请发票"
      okText="提交申请"
      cancelText="取消"
      width={640}
      confirmLoading={busy}
      okButtonProps={{ disabled: invoiceable.length === 0, autoInsertSpace: false, 'data-testid': 'invoice-request-submit' } as never}
      cancelButtonProps={{ autoInsertSpace: false }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Table
        size="small"
        rowKey="user_order_id"
        loading={orders === null}
        pagination={false}
        dataSource={orders ?? []}
        scroll={{ x: 480 }}
        columns={[
          { title: '订单号', dataIndex: 'order_no', width: 170 },
          { title: '实付', dataIndex: 'paid', render: (v: number) => formatPrice(v) },
          { title: '已退款', dataIndex: 'refunded', render: (v: number) => formatPrice(v) },
          { title: '已开票', dataIndex: 'invoiced', render: (v: number) => formatPrice(v) },
          { title: '本次开票', dataIndex: 'invoiceable', render: (v: number) => <strong>{formatPrice(v)}</strong> },
        ]}
      />
      <p className="invoice-total" data-testid="invoice-request-total">
        开票金额合计 <strong>{formatPrice(total)}</strong>
        {orders !== null && invoiceable.length < orders.length ? <span className="order-muted">（未支付或已全部开票的订单不在本次发票中）</span> : null}
      </p>
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} className="invoice-form">
        <Form.Item
          name="title"
          label="发票抬头"
          rules={[
            { required: true, whitespace: true, message: '请填写发票抬头' },
            { min: INVOICE_LIMITS.titleMin, max: INVOICE_LIMITS.titleMax, message: `发票抬头为 ${INVOICE_LIMITS.titleMin}–${INVOICE_LIMITS.titleMax} 个字` },
          ]}
        >
          <Input maxLength={INVOICE_LIMITS.titleMax} placeholder="单位全称" data-testid="invoice-title" />
        </Form.Item>
        <Form.Item
          name="tax_id"
          label="纳税人识别号"
          rules={[
            { required: true, message: '请填写纳税人识别号' },
            {
              validator: async (_, value: string | undefined) =>
                value && !isCreditCode(normalizeTaxId(value)) ? Promise.reject(new Error('请输入正确的 18 位统一社会信用代码')) : undefined,
            },
          ]}
        >
          <Input maxLength={24} placeholder="18 位统一社会信用代码" data-testid="invoice-tax-id" />
        </Form.Item>
        <Form.Item
          name="address_phone"
          label="地址、电话（选填）"
          rules={[{ max: INVOICE_LIMITS.addressPhoneMax, message: `最多 ${INVOICE_LIMITS.addressPhoneMax} 个字` }]}
        >
          <Input maxLength={INVOICE_LIMITS.addressPhoneMax} data-testid="invoice-address-phone" />
        </Form.Item>
        <Form.Item
          name="bank_account"
          label="开户行及账号（选填）"
          rules={[{ max: INVOICE_LIMITS.bankAccountMax, message: `最多 ${INVOICE_LIMITS.bankAccountMax} 个字` }]}
        >
          <Input maxLength={INVOICE_LIMITS.bankAccountMax} data-testid="invoice-bank-account" />
        </Form.Item>
        <Form.Item
          name="email"
          label="收票邮箱"
          rules={[
            { required: true, message: '请填写收票邮箱' },
            { pattern: EMAIL_PATTERN, message: '请输入正确的邮箱' },
          ]}
        >
          <Input maxLength={INVOICE_LIMITS.emailMax} placeholder="开具后电子发票通知发到这里" data-testid="invoice-email" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
