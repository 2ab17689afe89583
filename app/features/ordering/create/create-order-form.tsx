// The create-order page (spec 2.1): process line, the product, the consular
// district, departure and order dates, the applicants, and the total in a
// bottom bar. Creating the order leads to the material upload.
import { EnvironmentOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, type FormInstance, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { ORDER_LIMITS } from '../../../../common/contracts/rules';
import { formatPrice } from '../../../../common/format';
import { api } from '../../../lib/api-client';
import { CHECK_FIELDS_MESSAGE, toast } from '../../../lib/toast';
import { OrderingSteps } from '../../../components/ordering-steps';
import { ApplicantItems, checkRule } from './applicant-items';
import type { CreateOrderView } from './create-order-model';
import { ProductBrief } from './product-brief';
import { CREATE_ORDER_MESSAGES, type ApplicantValues, createOrderPayload, departureError, lastDepartureDate, orderDateError } from './create-order-rules';

type ReadyView = Extract<CreateOrderView, { kind: 'ready' }>;

interface FormShape {
  consular_district_id?: number;
  departure_date?: Dayjs;
  order_date?: Dayjs;
  applicants: ApplicantValues[];
}

export const ORDER_CREATED_TEXT = '订单已创建，请上传资料';

const dateText = (value: Dayjs | null | undefined): string | null => (value ? value.format('YYYY-MM-DD') : null);

export interface CreateOrderFormProps {
  view: ReadyView;
  today: string;
  /** Shown above the applicant items, with the form (the saved travellers' picker: app/features/travellers). */
  beforeApplicants?: (form: FormInstance) => ReactNode;
  /** Shown at the foot of each applicant item. */
  applicantExtra?: (form: FormInstance, index: number) => ReactNode;
  /** Run once the order is created, before leaving for the upload step, with every applicant value the form holds. */
  afterCreate?: (applicants: ApplicantValues[]) => Promise<void>;
}

export function CreateOrderForm({ view, today, beforeApplicants, applicantExtra, afterCreate }: CreateOrderFormProps) {
  const { product, districts, districtFixed } = view;
  const [form] = Form.useForm<FormShape>();
  const [submitting, setSubmitting] = useState(false);
  const navigate = useNavigate();
  const applicants = Form.useWatch('applicants', form) ?? [{}];
  const districtId = Form.useWatch('consular_district_id', form);
  const district = districts.find((d) => d.consular_district_id === districtId) ?? null;
  const last = lastDepartureDate(today);

  const submit = async (values: FormShape) => {
    setSubmitting(true);
    try {
      const payload = createOrderPayload(product.visa_product_id, {
        consular_district_id: districts.length > 0 ? (values.consular_district_id ?? null) : null,
        departure_date: dateText(values.departure_date)!,
        order_date: dateText(values.order_date) ?? today,
        applicants: values.applicants,
      });
      const result = await api('/www/order/order_create', payload);
      // The short processing time is worth knowing, but the order stands: a longer-lasting warning, not a blocker.
      if (result.departure_warning) toast.warning(result.departure_warning.message, 8);
      else toast.success(ORDER_CREATED_TEXT);
      // The whole store, not onFinish's values: fields shown only when asked for (the traveller's pinyin…) are kept there too.
      // Whatever happens there, the order exists: never stay on a form that would create it again.
      await afterCreate?.(form.getFieldValue('applicants') ?? []).catch(() => undefined);
      // Replace: going back must not land on a form that would create the order a second time.
      navigate(`/ordering/upload/${result.user_order_id}`, { replace: true });
    } catch {
      // api has shown the server's message.
      setSubmitting(false);
    }
  };

  return (
    <Form<FormShape>
      form={form}
      layout="vertical"
      requiredMark
      scrollToFirstError={{ block: 'center' }}
      onFinish={(values) => void submit(values)}
      onFinishFailed={() => toast.error(CHECK_FIELDS_MESSAGE)}
      initialValues={{ consular_district_id: view.districtId ?? undefined, order_date: dayjs(today), applicants: [{}] }}
      className="co-form"
      data-testid="create-order-form"
    >
      <div className="co-body">
        <OrderingSteps current="create" needInterview={product.need_interview} />
        <ProductBrief product={product} />

        <section className="co-card" aria-labelledby="co-trip-title">
          <h2 className="co-card-title" id="co-trip-title">
            行程信息
          </h2>
          <div className="co-trip-fields">
            {districts.length > 0 ? (
              <Form.Item
                name="consular_district_id"
                label="领区"
                required
                rules={[{ required: true, message: CREATE_ORDER_MESSAGES.district }]}
                extra={
                  district ? (
                    <span data-testid="district-provinces">
                      {view.districtSource === 'ip' && districtId === view.districtId ? '已根据您的网络位置选择 · ' : ''}
                      {district.provinces.length > 0 ? `受理${district.provinces.join('、')}居民` : district.consulate_name}
                    </span>
                  ) : (
                    '按户籍或长期居住（工作）所在省份选择'
                  )
                }
              >
                <Select
                  placeholder="请选择领区"
                  disabled={districtFixed}
                  options={districts.map((d) => ({ value: d.consular_district_id, label: d.name }))}
                  suffixIcon={<EnvironmentOutlined />}
                  data-testid="district-select"
                />
              </Form.Item>
            ) : (
              <Form.Item label="领区">
                <div className="co-static" data-testid="district-none">
                  不分领区，全国受理
                </div>
              </Form.Item>
            )}
            <Form.Item
              name="departure_date"
              label="出发日期"
              required
              rules={[checkRule((value: Dayjs | undefined) => departureError(dateText(value), today))]}
            >
              <DatePicker
                className="co-date"
                placeholder="请选择出发日期"
                inputReadOnly
                disabledDate={(day) => {
                  const date = day.format('YYYY-MM-DD');
                  return date < today || date > last;
                }}
                data-testid="departure-date"
              />
            </Form.Item>
            <Form.Item
              name="order_date"
              label="办理日期"
              required
              dependencies={['departure_date']}
              tooltip="开始办理（递交资料）的日期，默认今天"
              rules={[checkRule((value: Dayjs | undefined) => orderDateError(dateText(value), dateText(form.getFieldValue('departure_date')), today))]}
            >
              <DatePicker
                className="co-date"
                placeholder="请选择办理日期"
                inputReadOnly
                disabledDate={(day) => {
                  const date = day.format('YYYY-MM-DD');
                  const departure = dateText(form.getFieldValue('departure_date'));
                  return date < today || date > (departure ?? last);
                }}
                data-testid="order-date"
              />
            </Form.Item>
          </div>
        </section>

        <section className="co-card" aria-labelledby="co-applicants-title">
          <h2 className="co-card-title" id="co-applicants-title">
            申请人信息{' '}
            <span className="co-muted co-count">
              （{applicants.length}/{ORDER_LIMITS.maxApplicants}）
            </span>
          </h2>
          <p className="co-hint">每位申请人按身份准备资料，下一步将按身份显示各自的资料清单。</p>
          {beforeApplicants?.(form)}
          <ApplicantItems
            form={form}
            stayDays={product.stay_days}
            today={today}
            applicantExtra={applicantExtra ? (index) => applicantExtra(form, index) : undefined}
          />
        </section>
      </div>

      <div className="co-footer" data-testid="create-order-footer">
        <div className="co-footer-inner">
          <div className="co-total">
            <span className="co-muted">
              {formatPrice(product.unit_price)} × {applicants.length}人
            </span>
            <span>
              合计{' '}
              <strong className="co-price" data-testid="create-order-total">
                {formatPrice(product.unit_price * applicants.length)}
              </strong>
            </span>
          </div>
          <Button type="primary" size="large" htmlType="submit" loading={submitting} data-testid="create-order-submit">
            提交订单
          </Button>
        </div>
      </div>
    </Form>
  );
}
