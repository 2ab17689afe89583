// Filling an applicant from a passport photo (issue 28): the data page is
// read on our server (its machine-readable zone), the fields come back marked
// 机读, and nothing reaches the form until the customer has ticked each one
// as right (and, for a Chinese passport, typed the name in characters: the
// zone holds only pinyin). A failed read says why and leaves the form as it was.
import { IdcardOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, DatePicker, Form, type FormInstance, Tag, Upload } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import type { PassportReadResult } from '../../../common/contracts/passport-scan';
import { PASSPORT_NO_PATTERN } from '../../../common/contracts/rules';
import { ApiError, apiUpload, REQUEST_ERROR_TEXT } from '../../lib/api-client';
import { TrimmedInput } from '../trimmed-input';
import { passportValidityWarning } from '../../../common/passport';
import './passport-scan.css';

export const MACHINE_TAG = '机读';
export const SCAN_FAILED_PREFIX = '未能读取护照';

type Row = { key: keyof PassportReadResult['fields'] | 'chinese_name'; label: string; value: string };

function rowsOf(result: PassportReadResult): Row[] {
  const f = result.fields;
  return [
    { key: 'surname', label: result.chinese_passport ? '姓（拼音）' : '姓', value: f.surname },
    { key: 'given_names', label: result.chinese_passport ? '名（拼音）' : '名', value: f.given_names || '—' },
    { key: 'passport_no', label: '护照号码', value: f.passport_no },
    { key: 'nationality', label: '国籍', value: f.nationality },
    { key: 'birth_date', label: '出生日期', value: f.birth_date },
    { key: 'sex', label: '性别', value: f.sex === 'M' ? '男' : f.sex === 'F' ? '女' : '未注明' },
    { key: 'expiry_date', label: '有效期至', value: f.expiry_date },
  ];
}

/** The scan button and, after a read, the fields to confirm. `index` is the applicant's place in the Form.List. */
export function PassportScan({ form, index, label }: { form: FormInstance; index: number; label: string }) {
  const [reading, setReading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [result, setResult] = useState<PassportReadResult | null>(null);
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  const [chineseName, setChineseName] = useState('');

  const read = async (file: File) => {
    setReading(true);
    setFailed(null);
    setResult(null);
    try {
      const form = new FormData();
      form.append('file', file);
      const read = await apiUpload('/www/passport/passport_read', form, { toast: false });
      setChecked({});
      setChineseName('');
      setResult(read);
    } catch (error) {
      setFailed(error instanceof ApiError ? error.message : REQUEST_ERROR_TEXT);
    } finally {
      setReading(false);
    }
  };

  const rows = result ? rowsOf(result) : [];
  const allChecked = rows.every((row) => checked[row.key]) && (!result?.chinese_passport || chineseName.trim() !== '');

  const fill = () => {
    if (!result || !allChecked) return;
    const f = result.fields;
    const name = result.chinese_passport ? chineseName.trim() : [f.surname, f.given_names].filter(Boolean).join(' ');
    form.setFieldValue(['applicants', index, 'name'], name);
    form.setFieldValue(['applicants', index, 'passport_no'], f.passport_no);
    form.setFieldValue(['applicants', index, 'passport_expiry'], f.expiry_date);
    form.setFieldValue(['applicants', index, 'machine_read'], true);
    // Not the order's: kept in the form for saving the applicant as a saved traveller (app/features/travellers).
    form.setFieldValue(['applicants', index, 'pinyin'], [f.surname, f.given_names].filter(Boolean).join(' '));
    if (f.sex === 'M' || f.sex === 'F') form.setFieldValue(['applicants', index, 'sex'], f.sex);
    form.setFieldValue(['applicants', index, 'birth_date'], f.birth_date);
    void form.validateFields([['applicants', index, 'name']]).catch(() => undefined);
    setResult(null);
  };

  return (
    <div className="ps-scan" data-testid="passport-scan">
      <Upload
        accept="image/jpeg,image/png"
        showUploadList={false}
        disabled={reading}
        customRequest={({ file }) => void read(file as File)}
        data-testid="passport-scan-upload"
      >
        <Button icon={<IdcardOutlined />} loading={reading} data-testid="passport-scan-button">
          {reading ? '正在识别护照…' : '扫描护照填写'}
        </Button>
      </Upload>
      <span className="ps-hint">上传护照资料页照片，识别机读区后由您逐项核对；图片不保存</span>
      {failed ? (
        <Alert
          className="ps-alert"
          type="error"
          showIcon
          closable
          onClose={() => setFailed(null)}
          title={`${SCAN_FAILED_PREFIX}：${failed}`}
          description="表单未作任何修改，可重新拍摄或直接手动填写。"
          data-testid="passport-scan-error"
        />
      ) : null}
      {result ? (
        <section className="ps-review" aria-label={`${label}的护照识别结果`} data-testid="passport-scan-review">
          <div className="ps-review-head">
            <strong>护照识别结果</strong>
            <span className="ps-hint">请与护照逐项核对，每项勾选“无误”后才会填入</span>
          </div>
          {result.expired ? <Alert type="warning" showIcon title="这本护照已过期，请使用有效护照办理" /> : null}
          <ul className="ps-rows">
            {rows.map((row) => (
              <li key={row.key} className="ps-row" data-testid={`passport-field-${row.key}`}>
                <span className="ps-label">{row.label}</span>
                <span className="ps-value">
                  {row.value} <Tag color="gold">{MACHINE_TAG}</Tag>
                </span>
                <Checkbox checked={Boolean(checked[row.key])} onChange={(event) => setChecked((all) => ({ ...all, [row.key]: event.target.checked }))}>
                  无误
                </Checkbox>
              </li>
            ))}
          </ul>
          {result.chinese_passport ? (
            <label className="ps-chinese">
              <span>中文姓名（机读区只有拼音 {[result.fields.surname, result.fields.given_names].filter(Boolean).join(' ')}，请按护照填写汉字）</span>
              <TrimmedInput value={chineseName} onChange={setChineseName} placeholder="如：张三" maxLength={30} data-testid="passport-chinese-name" />
            </label>
          ) : null}
          <p className="ps-hint">填入姓名、护照号码和有效期；拼音、出生日期和性别在保存为常用出行人时使用，国籍供您核对。</p>
          <div className="ps-actions">
            <Button onClick={() => setResult(null)} data-testid="passport-scan-discard">
              放弃
            </Button>
            <Button type="primary" disabled={!allChecked} onClick={fill} data-testid="passport-scan-fill">
              核对无误，填入
            </Button>
          </div>
        </section>
      ) : null}
    </div>
  );
}

const dateValue = (value: string | undefined) => ({ value: value ? dayjs(value) : undefined });
const dateText = (value: Dayjs | null | undefined) => (value ? value.format('YYYY-MM-DD') : undefined);

/** The applicant's passport number and expiry (optional), marked 机读 once filled from a confirmed scan, and the validity check against the trip. */
export function PassportFields({ form, index, stayDays, today }: { form: FormInstance; index: number; stayDays: number; today: string }) {
  const machineRead = Form.useWatch(['applicants', index, 'machine_read'], form) === true;
  const expiry = Form.useWatch(['applicants', index, 'passport_expiry'], form) as string | undefined;
  const departure = Form.useWatch('departure_date', form) as Dayjs | undefined;
  const warning = passportValidityWarning(expiry, { departure: dateText(departure), stayDays }, today);
  const tag = machineRead ? (
    <Tag color="gold" className="ps-tag">
      {MACHINE_TAG}
    </Tag>
  ) : null;
  return (
    <>
      <Form.Item name={[index, 'machine_read']} hidden>
        <input type="hidden" />
      </Form.Item>
      <Form.Item
        name={[index, 'passport_no']}
        label={<span>护照号码（选填）{tag}</span>}
        validateTrigger="onBlur"
        rules={[
          {
            validator: (_rule, value?: string) =>
              !value || PASSPORT_NO_PATTERN.test(value.toUpperCase()) ? Promise.resolve() : Promise.reject(new Error('护照号码应为 5–20 位字母或数字')),
          },
        ]}
      >
        <TrimmedInput placeholder="如 E12345678" autoComplete="off" maxLength={20} data-testid="applicant-passport-no" />
      </Form.Item>
      <Form.Item name={[index, 'passport_expiry']} label={<span>护照有效期至（选填）{tag}</span>} getValueProps={dateValue} normalize={dateText}>
        <DatePicker className="ps-date" placeholder="用于核对护照有效期" inputReadOnly data-testid="applicant-passport-expiry" />
      </Form.Item>
      {warning ? <Alert className="ps-validity" type="warning" showIcon title={warning} data-testid="passport-validity-warning" /> : null}
    </>
  );
}
