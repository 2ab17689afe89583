// 产品管理 · 国家编辑 (issue 26): the country (continent, ISO code with its
// flag, names, introduction, state) and its consular districts: the consulate,
// its city and address, and the provinces it covers (the address library's).
// The days its consulates close every year (national days …) are listed too:
// the interview slot calendar skips them. The server checks the whole with the catalogue importer's rules and answers
// the first problem in Chinese; a district that has products or interview
// slots cannot be removed. The country's version travels with the save:
// another editor's save in between is refused (2620) and this form is kept,
// so nothing typed is lost.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, InputNumber, Radio, Select, Tag } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AdminCountryEditor, CountryContent, DistrictContent, NationalDayContent } from '../../../../common/contracts/catalogue-places';
import type { Province } from '../../../../common/web-context';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { adminApi } from '../admin-api';
import { EditorConflict } from './editor-conflict';
import './catalogue.css';

type DistrictRow = DistrictContent & { in_use?: boolean };
interface FormValues {
  country: CountryContent;
  districts: DistrictRow[];
  national_days: NationalDayContent[];
}

const CONFLICT = 2620;

const flagOf = (iso: string) => (/^[A-Z]{2}$/.test(iso) ? `/static/flags/4x3/${iso.toLowerCase()}.svg` : null);

export function CountryEditorPage({ editor, provinces }: { editor: AdminCountryEditor; provinces: Province[] }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const [busy, setBusy] = useState(false);
  const [conflict, setConflict] = useState(false);
  const iso = Form.useWatch(['country', 'iso_code'], form) ?? editor.country.iso_code;
  const flag = flagOf(iso);
  const provinceOptions = provinces.map((p) => ({ value: p.province_code, label: p.name }));

  async function save(values: FormValues) {
    setBusy(true);
    try {
      const saved = await adminApi('/admin-api/catalogue/country_save', {
        ...(editor.visa_country_id ? { visa_country_id: editor.visa_country_id } : {}),
        version: editor.version,
        country: values.country,
        districts: (values.districts ?? []).map(({ in_use: _, ...district }) => ({
          ...district,
          interview_video_url: district.interview_video_url || null,
          province_codes: district.province_codes ?? [],
        })),
        national_days: values.national_days ?? [],
      });
      toast.success('已保存，客人页面已更新');
      navigate(`/admin/catalogue/countries/edit?country=${saved.visa_country_id}`, { replace: true });
    } catch (error) {
      // The client has shown the server's message; a conflict also keeps the form as typed, with the banner below.
      if (error instanceof ApiError && error.ret === CONFLICT) setConflict(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="cat-list-page" data-testid="country-editor">
      <div className="cat-editor-head">
        <div>
          <Link to="/admin/catalogue/countries">← 国家与领区</Link>
          <h1 className="cat-title">{editor.visa_country_id ? `编辑国家 · ${editor.country.name}` : '新建国家'}</h1>
        </div>
        <Button type="primary" loading={busy} disabled={conflict} onClick={() => form.submit()}>
          保存
        </Button>
      </div>
      {conflict ? <EditorConflict what="该国家" /> : null}
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{ country: editor.country, districts: editor.districts, national_days: editor.national_days }}
        onFinish={save}
      >
        <section className="cat-grid" aria-label="国家">
          <Form.Item name={['country', 'continent_id']} label="大洲" rules={[{ required: true, message: '请选择大洲' }]}>
            <Select options={editor.continents.map((c) => ({ value: c.continent_id, label: c.name }))} />
          </Form.Item>
          <Form.Item
            name={['country', 'iso_code']}
            label="国家代码（ISO 3166-1）"
            normalize={(value: string) => value.toUpperCase()}
            rules={[{ required: true, pattern: /^[A-Z]{2}$/, message: '两位大写字母，如 JP' }]}
            extra={
              flag ? (
                <img
                  key={flag}
                  className="cat-flag"
                  src={flag}
                  alt={`${iso} 国旗`}
                  data-testid="country-flag"
                  // A code without a flag file (ISO's user-assigned XA–XZ, say) shows no broken image.
                  onError={(event) => {
                    event.currentTarget.style.visibility = 'hidden';
                  }}
                />
              ) : (
                '国旗随代码显示'
              )
            }
          >
            <Input maxLength={2} />
          </Form.Item>
          <Form.Item name={['country', 'name']} label="国家名称" rules={[{ required: true, whitespace: true, message: '请填写国家名称' }]}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item name={['country', 'name_en']} label="英文名" rules={[{ required: true, whitespace: true, message: '请填写英文名' }]}>
            <Input maxLength={80} />
          </Form.Item>
          <Form.Item name={['country', 'hot']} label="热度（大的在前）">
            <InputNumber min={0} max={100000} precision={0} />
          </Form.Item>
          <Form.Item name={['country', 'status']} label="状态">
            <Radio.Group
              options={[
                { value: 0, label: '启用' },
                { value: 1, label: '停用' },
              ]}
            />
          </Form.Item>
          <Form.Item name={['country', 'description']} label="简介" className="cat-wide" rules={[{ required: true, whitespace: true, message: '请填写简介' }]}>
            <Input.TextArea rows={3} maxLength={2000} />
          </Form.Item>
        </section>

        <h2 className="cat-title">领区与领馆</h2>
        <Form.List name="districts">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => {
                const inUse = form.getFieldValue(['districts', field.name, 'in_use']) === true;
                return (
                  <section key={field.key} className="cat-district" aria-label={`第 ${index + 1} 个领区`}>
                    <div className="cat-district-head">
                      <h3>第 {index + 1} 个领区</h3>
                      {inUse ? (
                        <Tag>有产品或面试时段，不能删除</Tag>
                      ) : (
                        <Button size="small" icon={<DeleteOutlined />} onClick={() => remove(field.name)}>
                          删除领区
                        </Button>
                      )}
                    </div>
                    <div className="cat-grid">
                      <Form.Item name={[field.name, 'name']} label="领区名称" rules={[{ required: true, whitespace: true, message: '请填写领区名称' }]}>
                        <Input maxLength={50} placeholder="如：北京领区" />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'consulate_name']}
                        label="领馆名称"
                        rules={[{ required: true, whitespace: true, message: '请填写领馆名称' }]}
                      >
                        <Input maxLength={100} />
                      </Form.Item>
                      <Form.Item name={[field.name, 'city']} label="领馆城市" rules={[{ required: true, whitespace: true, message: '请填写城市' }]}>
                        <Input maxLength={30} />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'address']}
                        label="领馆地址"
                        className="cat-wide"
                        rules={[{ required: true, whitespace: true, message: '请填写地址' }]}
                      >
                        <Input maxLength={200} />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'province_codes']}
                        label="受理省份"
                        className="cat-wide"
                        rules={[{ required: true, type: 'array', min: 1, message: '领区至少要受理一个省份' }]}
                      >
                        <Select mode="multiple" options={provinceOptions} optionFilterProp="label" placeholder="选择该领区受理的省份" />
                      </Form.Item>
                      <Form.Item name={[field.name, 'interview_video_url']} label="面试指南视频（站内路径，可空）">
                        <Input maxLength={200} placeholder="/static/…" />
                      </Form.Item>
                    </div>
                  </section>
                );
              })}
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ name: '', consulate_name: '', city: '', address: '', province_codes: [], interview_video_url: null })}
              >
                添加领区
              </Button>
            </>
          )}
        </Form.List>

        <h2 className="cat-title cat-section-title">闭馆日（每年）</h2>
        <p className="cat-hint">该国驻华使领馆每年固定闭馆的日子（如国庆日）。面试时段日历会跳过这些日子；中国的法定节假日已自动排除。</p>
        <Form.List name="national_days">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => (
                <div key={field.key} className="cat-national-day" role="group" aria-label={`第 ${index + 1} 个闭馆日`}>
                  <Form.Item
                    name={[field.name, 'month_day']}
                    label="日期（月-日）"
                    rules={[{ required: true, pattern: /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, message: 'MM-DD，如 10-01' }]}
                  >
                    <Input maxLength={5} placeholder="10-01" />
                  </Form.Item>
                  <Form.Item name={[field.name, 'name']} label="名称" rules={[{ required: true, whitespace: true, message: '请填写名称' }]}>
                    <Input maxLength={50} placeholder="国庆日" />
                  </Form.Item>
                  <Button size="small" icon={<DeleteOutlined />} aria-label={`删除第 ${index + 1} 个闭馆日`} onClick={() => remove(field.name)}>
                    删除
                  </Button>
                </div>
              ))}
              <Button icon={<PlusOutlined />} onClick={() => add({ month_day: '', name: '' })}>
                添加闭馆日
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </div>
  );
}
