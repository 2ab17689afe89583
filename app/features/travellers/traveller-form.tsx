// Add or edit a saved traveller (常用出行人). The traveller's consent to
// keeping their information and documents is a required checkbox: the server
// records it with its time on every save (2402 without it).
import { Button, Checkbox, DatePicker, Form, Radio, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { IDENTITIES } from '../../../common/constants';
import type { TravellerView } from '../../../common/contracts/traveller';
import { TRAVELLER_LIMITS } from '../../../common/traveller';
import { TrimmedInput } from '../../components/trimmed-input';
import { ApiError, api } from '../../lib/api-client';
import { CHECK_FIELDS_MESSAGE, toast } from '../../lib/toast';

const IDENTITY_OPTIONS = Object.entries(IDENTITIES).map(([id, label]) => ({ value: Number(id), label }));

interface Values {
  name: string;
  pinyin: string;
  sex: 'M' | 'F';
  birth_date?: Dayjs;
  mobile_phone: string;
  email?: string;
  identity_id?: number;
  passport_no?: string;
  passport_expiry?: Dayjs;
  consent: boolean;
}

/** The consent's wording: what the traveller agrees to. */
export const TRAVELLER_CONSENT_TEXT = '出行人本人已同意本企业保存其个人信息和证件（加密保存，仅用于办理签证；可随时导出或删除）';

const date = (value: Dayjs | undefined) => (value ? value.format('YYYY-MM-DD') : '');

export function TravellerForm({ traveller, onSaved }: { traveller: TravellerView | null; onSaved: (saved: TravellerView) => void }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const saved = await api('/www/traveller/traveller_save', {
        ...(traveller ? { traveller_id: traveller.traveller_id } : {}),
        name: values.name ?? '',
        pinyin: values.pinyin ?? '',
        sex: values.sex,
        birth_date: date(values.birth_date),
        mobile_phone: values.mobile_phone ?? '',
        email: values.email || null,
        identity_id: values.identity_id ?? -1,
        passport_no: values.passport_no || null,
        passport_expiry: values.passport_expiry ? date(values.passport_expiry) : null,
        consent: values.consent === true,
      });
      onSaved(saved);
    } catch (error) {
      if (!(error instanceof ApiError)) toast.error('保存失败，请重试');
      setSaving(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark
      onFinish={(values) => void submit(values)}
      onFinishFailed={() => toast.error(CHECK_FIELDS_MESSAGE)}
      initialValues={
        traveller
          ? {
              ...traveller,
              email: traveller.email ?? undefined,
              passport_no: traveller.passport_no ?? undefined,
              birth_date: dayjs(traveller.birth_date),
              passport_expiry: traveller.passport_expiry ? dayjs(traveller.passport_expiry) : undefined,
              consent: false,
            }
          : { sex: 'M', consent: false }
      }
      className="tv-form"
      data-testid="traveller-form"
    >
      <div className="tv-form-grid">
        <Form.Item name="name" label="姓名" rules={[{ required: true, message: '请输入姓名' }]}>
          <TrimmedInput placeholder="与护照一致的中文姓名" maxLength={TRAVELLER_LIMITS.nameMaxLength} autoComplete="off" data-testid="traveller-name" />
        </Form.Item>
        <Form.Item name="pinyin" label="姓名拼音" rules={[{ required: true, message: '请输入姓名拼音' }]}>
          <TrimmedInput placeholder="如 ZHANG SAN" maxLength={TRAVELLER_LIMITS.pinyinMaxLength} autoComplete="off" data-testid="traveller-pinyin" />
        </Form.Item>
        <Form.Item name="sex" label="性别" rules={[{ required: true, message: '请选择性别' }]}>
          <Radio.Group
            options={[
              { value: 'M', label: '男' },
              { value: 'F', label: '女' },
            ]}
            data-testid="traveller-sex"
          />
        </Form.Item>
        <Form.Item name="birth_date" label="出生日期" rules={[{ required: true, message: '请选择出生日期' }]}>
          <DatePicker className="tv-date" placeholder="请选择出生日期" disabledDate={(day) => day.isAfter(dayjs())} data-testid="traveller-birth" />
        </Form.Item>
        <Form.Item name="mobile_phone" label="手机号" rules={[{ required: true, message: '请输入手机号' }]}>
          <TrimmedInput placeholder="11 位手机号" inputMode="tel" autoComplete="off" maxLength={20} data-testid="traveller-mobile" />
        </Form.Item>
        <Form.Item name="email" label="邮箱（选填）">
          <TrimmedInput placeholder="出行人的邮箱" inputMode="email" autoComplete="off" maxLength={100} data-testid="traveller-email" />
        </Form.Item>
        <Form.Item name="identity_id" label="身份" rules={[{ required: true, message: '请选择身份' }]}>
          <Select placeholder="请选择身份" options={IDENTITY_OPTIONS} data-testid="traveller-identity" />
        </Form.Item>
        <Form.Item name="passport_no" label="护照号码（选填）">
          <TrimmedInput placeholder="如 E12345678" autoComplete="off" maxLength={20} data-testid="traveller-passport" />
        </Form.Item>
        <Form.Item name="passport_expiry" label="护照有效期至（选填）">
          <DatePicker className="tv-date" placeholder="请选择日期" data-testid="traveller-passport-expiry" />
        </Form.Item>
      </div>
      <Form.Item
        name="consent"
        valuePropName="checked"
        rules={[{ validator: (_rule, value) => (value === true ? Promise.resolve() : Promise.reject(new Error('请确认出行人已同意保存其资料'))) }]}
      >
        <Checkbox data-testid="traveller-consent">{TRAVELLER_CONSENT_TEXT}</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} block data-testid="traveller-save">
        保存
      </Button>
    </Form>
  );
}
