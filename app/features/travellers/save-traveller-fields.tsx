// The create-order page's "保存为常用出行人" / "更新常用出行人" for one applicant
// (app/features/travellers/save-from-order.ts): the box, and once ticked what
// a saved traveller needs beyond the order's fields (pinyin, sex, birth date:
// filled from a passport scan or the saved traveller) and the traveller's
// consent. Nothing is saved here: the order's submit saves the ticked ones
// after the order is created (saveTravellersAfterOrder).
import { Checkbox, DatePicker, Form, type FormInstance, Radio } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TravellerView } from '../../../common/contracts/traveller';
import { TRAVELLER_LIMITS } from '../../../common/traveller';
import { TrimmedInput } from '../../components/trimmed-input';
import { ApiError, api, REQUEST_ERROR_TEXT } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { type ApplicantTravellerValues, pinyinError, SAVE_TRAVELLER_LABELS, SAVED_TRAVELLER_SAME_TEXT, saveMode, travellersToSave } from './save-from-order';
import { TRAVELLER_CONSENT_TEXT } from './traveller-form';
import './travellers.css';

const dateValue = (value: string | undefined) => ({ value: value ? dayjs(value) : undefined });
const dateText = (value: Dayjs | null | undefined) => (value ? value.format('YYYY-MM-DD') : undefined);
const required = (message: string, ok: (value: unknown) => boolean) => ({
  validator: (_rule: unknown, value: unknown) => (ok(value) ? Promise.resolve() : Promise.reject(new Error(message))),
});

/** `index` is the applicant's place in the form's Form.List "applicants". */
export function SaveTravellerFields({ form, index, travellers }: { form: FormInstance; index: number; travellers: TravellerView[] }) {
  const applicant = (Form.useWatch(['applicants', index], form) ?? {}) as ApplicantTravellerValues;
  const mode = saveMode(applicant, travellers);
  const ticked = applicant.save_traveller === true && mode !== 'same';
  return (
    <div className="tv-save" data-testid="traveller-save-from-order">
      <Form.Item name={[index, 'traveller_id']} hidden>
        <input type="hidden" />
      </Form.Item>
      {mode === 'same' ? (
        <span className="tv-muted" data-testid="traveller-save-same">
          {SAVED_TRAVELLER_SAME_TEXT}
        </span>
      ) : (
        <>
          <Form.Item name={[index, 'save_traveller']} valuePropName="checked" noStyle>
            <Checkbox data-testid="traveller-save-check">{SAVE_TRAVELLER_LABELS[mode]}</Checkbox>
          </Form.Item>
          <span className="tv-muted">{mode === 'update' ? '用本次填写的信息更新已保存的出行人' : '下次下单直接选择，无需重新填写'}</span>
        </>
      )}
      {ticked ? (
        <div className="tv-save-fields" data-testid="traveller-save-fields">
          <Form.Item
            name={[index, 'pinyin']}
            label="姓名拼音"
            required
            validateTrigger="onBlur"
            rules={[{ validator: (_rule, value?: string) => (pinyinError(value) ? Promise.reject(new Error(pinyinError(value)!)) : Promise.resolve()) }]}
          >
            <TrimmedInput
              placeholder="与护照一致，如 ZHANG SAN"
              maxLength={TRAVELLER_LIMITS.pinyinMaxLength}
              autoComplete="off"
              data-testid="traveller-save-pinyin"
            />
          </Form.Item>
          <Form.Item name={[index, 'sex']} label="性别" required rules={[required('请选择性别', (v) => v === 'M' || v === 'F')]}>
            <Radio.Group
              options={[
                { value: 'M', label: '男' },
                { value: 'F', label: '女' },
              ]}
              data-testid="traveller-save-sex"
            />
          </Form.Item>
          <Form.Item
            name={[index, 'birth_date']}
            label="出生日期"
            required
            getValueProps={dateValue}
            normalize={dateText}
            rules={[required('请选择出生日期', (v) => typeof v === 'string' && v !== '')]}
          >
            <DatePicker className="tv-date" placeholder="请选择出生日期" disabledDate={(day) => day.isAfter(dayjs())} data-testid="traveller-save-birth" />
          </Form.Item>
          <Form.Item
            className="tv-save-consent"
            name={[index, 'traveller_consent']}
            valuePropName="checked"
            rules={[required('请确认出行人已同意保存其资料', (v) => v === true)]}
          >
            <Checkbox data-testid="traveller-save-consent">{TRAVELLER_CONSENT_TEXT}</Checkbox>
          </Form.Item>
        </div>
      ) : null}
    </div>
  );
}

/**
 * After the order is created: saves the ticked applicants one by one. A refused save (the limit of
 * 200, a traveller deleted meanwhile…) does not undo the order: the customer is told who was not
 * saved and why, and can add them on 常用出行人.
 */
export async function saveTravellersAfterOrder(applicants: ApplicantTravellerValues[], travellers: TravellerView[]): Promise<void> {
  const wanted = travellersToSave(applicants, travellers);
  if (wanted.length === 0) return;
  const failed: string[] = [];
  let saved = 0;
  for (const one of wanted) {
    try {
      await api('/www/traveller/traveller_save', one.payload, { toast: false });
      saved += 1;
    } catch (error) {
      failed.push(`${one.name}（${error instanceof ApiError ? error.message : REQUEST_ERROR_TEXT}）`);
    }
  }
  if (failed.length > 0) toast.warning(`订单已创建，以下出行人未能保存为常用出行人：${failed.join('、')}。可在“常用出行人”中添加`, 10);
  else toast.success(`已保存 ${saved} 位常用出行人`);
}
