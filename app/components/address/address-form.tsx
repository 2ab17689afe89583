// Add or edit one address of the enterprise's book (return or peer). The
// rules are the address_save contract's (common/contracts/rules.ts), which
// the server enforces too: it still decides, and its message is shown when it
// refuses.
import { Button, Checkbox, Form } from 'antd';
import { useState } from 'react';
import type { AddressView } from '../../../common/contracts/address';
import { ADDRESS_LIMITS, MOBILE_PHONE_INPUT_MAX_LENGTH, MOBILE_PHONE_PATTERN } from '../../../common/contracts/rules';
import { type AddressKind } from '../../../common/address';
import { TrimmedInput } from '../trimmed-input';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { RegionCascader } from './region-cascader';
import { regionCodes, regionValue } from './region-options';

interface AddressFormValues {
  company_name?: string;
  name: string;
  mobile_phone: string;
  region: string[];
  detail: string;
  is_default: boolean;
}

const characters = (text: string | undefined) => [...(text ?? '')].length;

export interface AddressFormProps {
  kind: AddressKind;
  /** The address being edited; null adds a new one. */
  address: AddressView | null;
  onSaved: (address: AddressView) => void;
  onCancel: () => void;
}

export function AddressForm({ kind, address, onSaved, onCancel }: AddressFormProps) {
  const [form] = Form.useForm<AddressFormValues>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: AddressFormValues) => {
    const codes = regionCodes(values.region);
    if (!codes) return;
    setSaving(true);
    try {
      const saved = await api('/www/address/address_save', {
        address_id: address?.address_id ?? null,
        kind,
        company_name: kind === 'peer' ? values.company_name : null,
        name: values.name,
        mobile_phone: values.mobile_phone,
        ...codes,
        detail: values.detail,
        is_default: values.is_default,
      });
      toast.success(address ? '地址已修改' : '地址已添加');
      onSaved(saved);
    } catch {
      // The API client has shown the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<AddressFormValues>
      form={form}
      layout="vertical"
      requiredMark
      onFinish={submit}
      className="addr-form"
      data-testid="address-form"
      initialValues={{
        company_name: address?.company_name ?? '',
        name: address?.name ?? '',
        mobile_phone: address?.mobile_phone ?? '',
        region: address ? regionValue(address) : [],
        detail: address?.detail ?? '',
        is_default: address?.is_default ?? false,
      }}
    >
      {kind === 'peer' ? (
        <Form.Item
          name="company_name"
          label="同行公司名称"
          rules={[
            { required: true, message: '请输入同行公司名称' },
            {
              validator: async (_, value: string) =>
                characters(value) > ADDRESS_LIMITS.companyMaxLength
                  ? Promise.reject(new Error(`公司名称最多 ${ADDRESS_LIMITS.companyMaxLength} 个字`))
                  : undefined,
            },
          ]}
        >
          <TrimmedInput placeholder="如：北京环球国际旅行社" maxLength={ADDRESS_LIMITS.companyMaxLength} />
        </Form.Item>
      ) : null}
      <div className="addr-form-row">
        <Form.Item
          name="name"
          label={kind === 'peer' ? '联系人' : '收件人'}
          rules={[
            { required: true, message: '请输入姓名' },
            {
              validator: async (_, value: string) =>
                characters(value) > ADDRESS_LIMITS.nameMaxLength ? Promise.reject(new Error(`姓名最多 ${ADDRESS_LIMITS.nameMaxLength} 个字`)) : undefined,
            },
          ]}
        >
          <TrimmedInput placeholder="姓名" maxLength={ADDRESS_LIMITS.nameMaxLength} autoComplete="name" />
        </Form.Item>
        <Form.Item
          name="mobile_phone"
          label="手机号"
          rules={[
            { required: true, message: '请输入手机号' },
            {
              validator: async (_, value: string) =>
                value && !MOBILE_PHONE_PATTERN.test(value.replace(/[\s-]/g, '')) ? Promise.reject(new Error('请输入正确的手机号')) : undefined,
            },
          ]}
        >
          <TrimmedInput placeholder="11 位手机号" maxLength={MOBILE_PHONE_INPUT_MAX_LENGTH} inputMode="tel" autoComplete="tel" />
        </Form.Item>
      </div>
      <Form.Item
        name="region"
        label="所在地区"
        rules={[{ validator: async (_, value: string[] | undefined) => (regionCodes(value) ? undefined : Promise.reject(new Error('请选择省 / 市 / 区'))) }]}
        required
      >
        <RegionCascader />
      </Form.Item>
      <Form.Item
        name="detail"
        label="详细地址"
        rules={[
          { required: true, message: '请输入详细地址' },
          {
            validator: async (_, value: string) =>
              value && (characters(value) < ADDRESS_LIMITS.detailMinLength || characters(value) > ADDRESS_LIMITS.detailMaxLength)
                ? Promise.reject(new Error(`详细地址为 ${ADDRESS_LIMITS.detailMinLength}–${ADDRESS_LIMITS.detailMaxLength} 个字`))
                : undefined,
          },
        ]}
      >
        <TrimmedInput placeholder="街道、楼栋、门牌号" maxLength={ADDRESS_LIMITS.detailMaxLength} />
      </Form.Item>
      <Form.Item name="is_default" valuePropName="checked">
        <Checkbox>设为默认{kind === 'peer' ? '同行' : '回寄'}地址</Checkbox>
      </Form.Item>
      <div className="addr-form-actions">
        <Button onClick={onCancel}>返回列表</Button>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="address-form-save">
          保存地址
        </Button>
      </div>
    </Form>
  );
}
