// The applicant items of the create-order form (spec 2.1): 1–20 applicants,
// each with name, identity (decides the material checklist), mobile and an
// optional e-mail.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, type FormInstance, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ReactNode } from 'react';
import { EMAIL_MAX_LENGTH, MOBILE_PHONE_INPUT_MAX_LENGTH, ORDER_LIMITS } from '../../../../common/contracts/rules';
import { IDENTITIES } from '../../../../common/constants';
import { TrimmedInput } from '../../../components/trimmed-input';
import { PassportFields, PassportScan } from '../../../components/passport-scan/passport-scan';
import { CREATE_ORDER_MESSAGES, emailError, isDuplicateApplicant, mobileError, nameError } from './create-order-rules';

const IDENTITY_OPTIONS = Object.entries(IDENTITIES).map(([id, label]) => ({ value: Number(id), label }));

/** A form rule from one of the pure checks of create-order-rules.ts. */
export function checkRule<T>(check: (value: T) => string | null): Rule {
  return {
    validator: (_rule, value: T) => {
      const error = check(value);
      return error ? Promise.reject(new Error(error)) : Promise.resolve();
    },
  };
}

export interface ApplicantItemsProps {
  form: FormInstance;
  stayDays: number;
  today: string;
  /** Shown at the foot of each applicant (saving it as a saved traveller: app/features/travellers). */
  applicantExtra?: (index: number) => ReactNode;
}

export function ApplicantItems({ form, stayDays, today, applicantExtra }: ApplicantItemsProps) {
  return (
    <Form.List name="applicants">
      {(fields, { add, remove }) => (
        <>
          <ol className="co-applicants" data-testid="applicant-items">
            {fields.map((field, index) => (
              <li key={field.key} className="co-applicant" data-testid="applicant-item">
                <div className="co-applicant-head">
                  <span className="co-applicant-index">申请人 {index + 1}</span>
                  <Button
                    type="text"
                    size="small"
                    icon={<DeleteOutlined />}
                    disabled={fields.length <= ORDER_LIMITS.minApplicants}
                    onClick={() => remove(field.name)}
                    aria-label={`删除申请人 ${index + 1}`}
                    data-testid="applicant-remove"
                  >
                    删除
                  </Button>
                </div>
                <PassportScan form={form} index={field.name} label={`申请人 ${index + 1}`} />
                <div className="co-applicant-fields">
                  <Form.Item name={[field.name, 'name']} label="姓名" required validateTrigger="onBlur" rules={[checkRule(nameError)]}>
                    <TrimmedInput placeholder="与护照一致的中文姓名" autoComplete="off" data-testid="applicant-name" />
                  </Form.Item>
                  <Form.Item name={[field.name, 'identity_id']} label="身份" required rules={[{ required: true, message: CREATE_ORDER_MESSAGES.identity }]}>
                    <Select placeholder="请选择身份" options={IDENTITY_OPTIONS} data-testid="applicant-identity" />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'mobile_phone']}
                    label="手机号"
                    required
                    validateTrigger="onBlur"
                    rules={[
                      checkRule(mobileError),
                      checkRule(() => (isDuplicateApplicant(form.getFieldValue('applicants') ?? [], index) ? CREATE_ORDER_MESSAGES.duplicate : null)),
                    ]}
                  >
                    <TrimmedInput
                      placeholder="11 位手机号"
                      inputMode="tel"
                      autoComplete="off"
                      maxLength={MOBILE_PHONE_INPUT_MAX_LENGTH}
                      data-testid="applicant-mobile"
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'email']} label="邮箱（选填）" validateTrigger="onBlur" rules={[checkRule(emailError)]}>
                    <TrimmedInput
                      placeholder="申请人的联系邮箱（办理通知发往您的账号邮箱）"
                      inputMode="email"
                      autoComplete="off"
                      maxLength={EMAIL_MAX_LENGTH}
                      data-testid="applicant-email"
                    />
                  </Form.Item>
                  <PassportFields form={form} index={field.name} stayDays={stayDays} today={today} />
                </div>
                {applicantExtra?.(field.name)}
              </li>
            ))}
          </ol>
          <Button
            type="dashed"
            block
            icon={<PlusOutlined />}
            disabled={fields.length >= ORDER_LIMITS.maxApplicants}
            onClick={() => add({})}
            data-testid="applicant-add"
          >
            {fields.length >= ORDER_LIMITS.maxApplicants ? `最多 ${ORDER_LIMITS.maxApplicants} 位申请人` : '添加申请人'}
          </Button>
        </>
      )}
    </Form.List>
  );
}
