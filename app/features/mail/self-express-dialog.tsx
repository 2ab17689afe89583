// The self-express dialog (spec 2.1, /order/instances/self-express-dialog):
// the customer sent the paper materials themself and enters the courier
// company (其他 with its name) and the waybill number.
import { Button, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { COURIER_COMPANIES, COURIER_COMPANY_VALUES, COURIER_LIMITS, type CourierCompany } from '../../../common/courier';
import { ErrorCode } from '../../../common/error-codes';
import { AppDialog } from '../../components/app-dialog';
import { ApiError, api } from '../../lib/api-client';
import { toast } from '../../lib/toast';

interface Values {
  courier_company: CourierCompany;
  courier_company_name?: string;
  waybill_no: string;
}

export function SelfExpressDialog({
  open,
  onClose,
  userOrderId,
  version,
  onSent,
}: {
  open: boolean;
  onClose: () => void;
  userOrderId: number;
  version: number;
  onSent: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const company = Form.useWatch('courier_company', form);
  const [saving, setSaving] = useState(false);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await api(
        '/www/order/mail_self_express',
        {
          user_order_id: userOrderId,
          version,
          courier_company: values.courier_company,
          courier_company_name: values.courier_company === 'OTHER' ? (values.courier_company_name ?? '') : null,
          waybill_no: values.waybill_no,
        },
        { toast: false },
      );
      toast.success('已提交快递信息，我们收到资料后会尽快核对');
      form.resetFields();
      onClose();
      onSent();
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 401) return;
      toast.error(error instanceof ApiError ? error.message : '提交失败，请重试');
      if (error instanceof ApiError && error.ret > 0 && error.ret !== ErrorCode.COURIER_WAYBILL_INVALID && error.ret !== ErrorCode.COURIER_COMPANY_INVALID)
        onSent();
    } finally {
      setSaving(false);
    }
  };

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title="自行寄送"
      subtitle="已自行寄出资料？请填写快递公司和快递单号"
      width={460}
      footer={
        <div className="mail-dialog-footer">
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="self-express-submit">
            提交
          </Button>
        </div>
      }
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} initialValues={{ courier_company: 'SF' }} requiredMark={false}>
        <Form.Item name="courier_company" label="快递公司" rules={[{ required: true, message: '请选择快递公司' }]}>
          <Select
            data-testid="self-express-company"
            options={COURIER_COMPANY_VALUES.map((value) => ({ value, label: COURIER_COMPANIES[value] }))}
            aria-label="快递公司"
          />
        </Form.Item>
        {company === 'OTHER' ? (
          <Form.Item
            name="courier_company_name"
            label="快递公司名称"
            rules={[
              { required: true, whitespace: true, message: '请填写快递公司名称' },
              { max: COURIER_LIMITS.companyNameMaxLength, message: `不超过 ${COURIER_LIMITS.companyNameMaxLength} 个字` },
            ]}
          >
            <Input placeholder="如：同城闪送" maxLength={COURIER_LIMITS.companyNameMaxLength} />
          </Form.Item>
        ) : null}
        <Form.Item name="waybill_no" label="快递单号" rules={[{ required: true, whitespace: true, message: '请输入快递单号' }]}>
          <Input placeholder={company === 'SF' ? '如：SF1234567890123' : '请输入快递单号'} maxLength={40} data-testid="self-express-waybill" />
        </Form.Item>
      </Form>
    </AppDialog>
  );
}
