// 产品编辑 (issue 26): every field of spec §3 that the catalogue stores, the
// five checklists, a live preview with the guest page's own components, and
// the product's publications. Saving stores a draft (guests see nothing);
// 发布 publishes the saved draft. The draft's version travels with each save:
// another editor's save in between is refused (2324) and this form is kept,
// so nothing typed is lost.
import { Alert, Button, Checkbox, Form, Input, InputNumber, Modal, Popconfirm, Radio, Select, Space, Switch, Table, Tabs, Tag } from 'antd';
import { type ComponentType, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { productTitle } from '../../../../common/catalogue';
import type { VisaProductDetail } from '../../../../common/contracts/catalogue';
import { IDENTITIES } from '../../../../common/constants';
import {
  PROCEDURE_ICON_LABELS,
  PROCEDURE_ICON_NAMES,
  type ProductContent,
  type ProductEditor,
  type Publication,
} from '../../../../common/contracts/catalogue-admin';
import { formatDateTime } from '../../../../common/format';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { adminApi } from '../admin-api';
import { ListRows } from './list-rows';
import { previewDetail } from './preview-detail';
import { EditorConflict } from './editor-conflict';
import './catalogue.css';

const CONFLICT = 2324;
const ATTR_OPTIONS = [
  { value: 0, label: '电子资料' },
  { value: 1, label: '邮寄资料' },
  { value: 2, label: '赴馆资料' },
];
const PHOTO_COLORS = [
  { value: 0, label: '蓝底' },
  { value: 1, label: '白底' },
  { value: 2, label: '红底' },
  { value: 3, label: '灰底' },
];

/** The form holds the content plus two switches for its optional parts. */
type FormValues = ProductContent & { has_discount: boolean; has_photo: boolean };

function toForm(content: ProductContent): FormValues {
  return {
    ...content,
    has_discount: content.distributor_discount !== null,
    distributor_discount: content.distributor_discount ?? { desc: '企业价', price: content.sell_price },
    has_photo: content.photo !== null,
    photo: content.photo ?? { color: 1, width: 35, height: 45 },
  };
}

function toContent(values: FormValues): ProductContent {
  const { has_discount, has_photo, ...content } = values;
  return {
    ...content,
    distributor_discount: has_discount ? content.distributor_discount : null,
    photo: has_photo ? content.photo : null,
    // The form's checklists are the five identities in order; a watched value lacks the unregistered identity_id.
    checklists: content.checklists.map((checklist, index) => ({ ...checklist, identity_id: index })),
  };
}

/** Yuan in the form, cents in the content. */
const yuan = {
  getValueProps: (value: unknown) => ({ value: typeof value === 'number' ? value / 100 : value }),
  normalize: (value: unknown) => (typeof value === 'number' ? Math.round(value * 100) : value),
};
/** Per cent in the form, per ten-thousand in the content. */
const percent = yuan;

function CopyChecklistDialog({ open, onClose, onCopy }: { open: boolean; onClose: () => void; onCopy: (checklists: ProductContent['checklists']) => void }) {
  const [id, setId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  async function copy() {
    if (!id) return;
    setBusy(true);
    try {
      const source = await adminApi('/admin-api/catalogue/product_editor', { visa_product_id: id });
      onCopy(source.content.checklists);
      onClose();
    } catch {
      // The client has shown the server's message.
    }
    setBusy(false);
  }
  return (
    <Modal
      title="从其他产品复制材料清单"
      open={open}
      onCancel={onClose}
      onOk={copy}
      okText="复制"
      confirmLoading={busy}
      okButtonProps={{ disabled: !id }}
      destroyOnHidden
    >
      <p>复制该产品五种身份的清单（含草稿中的修改），替换本页的清单；保存后生效。</p>
      <Form.Item label="产品编号" htmlFor="copy-product-id">
        <InputNumber id="copy-product-id" min={1} precision={0} value={id} onChange={(value) => setId(value)} style={{ width: 200 }} />
      </Form.Item>
    </Modal>
  );
}

function ChecklistTab({ index }: { index: number }) {
  const form = Form.useFormInstance<FormValues>();
  const offered = Form.useWatch(['checklists', index, 'offered'], form);
  return (
    <div className="cat-checklist">
      <Form.Item name={['checklists', index, 'offered']} valuePropName="checked" label="接受该身份的申请人">
        <Switch />
      </Form.Item>
      {offered ? (
        <ListRows
          name={['checklists', index, 'materials']}
          label="资料"
          max={60}
          newRow={() => ({ required: true, attr: 0, name: '', attention: '', sample: null })}
        >
          {(field) => (
            <div className="cat-material">
              <Form.Item name={[field.name, 'required']} valuePropName="checked" noStyle>
                <Checkbox>必备</Checkbox>
              </Form.Item>
              <Form.Item name={[field.name, 'attr']} noStyle>
                <Select options={ATTR_OPTIONS} style={{ width: 110 }} aria-label="资料类型" />
              </Form.Item>
              <Form.Item name={[field.name, 'name']} noStyle>
                <Input placeholder="资料名称" maxLength={100} style={{ width: 200 }} aria-label="资料名称" />
              </Form.Item>
              <Form.Item name={[field.name, 'attention']} noStyle>
                <Input placeholder="注意事项" maxLength={2000} style={{ width: 260 }} aria-label="注意事项" />
              </Form.Item>
              <Form.Item name={[field.name, 'sample']} noStyle>
                <Input placeholder="样例图片地址（可选）" maxLength={200} style={{ width: 200 }} aria-label="样例图片地址" />
              </Form.Item>
            </div>
          )}
        </ListRows>
      ) : (
        <Alert type="info" showIcon title="不接受该身份：客人页面的该身份页签显示为暂无资料，下单时不能选择该身份的申请人。" />
      )}
    </div>
  );
}

function PublicationList({ list }: { list: Publication[] }) {
  if (list.length === 0) return <p className="cat-muted">尚未发布过。</p>;
  return (
    <Table
      rowKey="publication_id"
      size="small"
      pagination={false}
      dataSource={list}
      columns={[
        { title: '发布时间', dataIndex: 'published_at', width: 170, render: (at: number) => formatDateTime(at) },
        { title: '发布人', dataIndex: 'operator_name', width: 100 },
        {
          title: '改动',
          dataIndex: 'changes',
          render: (changes: Publication['changes']) => (
            <ul className="cat-changes">
              {changes.map((change) => (
                <li key={change.field}>
                  <strong>{change.label}</strong>
                  {change.before === null ? '（新建）' : null}
                  {typeof change.after !== 'object' && change.before !== null ? `：${String(change.before)} → ${String(change.after)}` : null}
                </li>
              ))}
            </ul>
          ),
        },
      ]}
    />
  );
}

/**
 * Preview: the guest product page's components, handed in by the route (a
 * feature does not import another feature).
 */
export function ProductEditorPage({
  editor,
  Preview,
}: {
  editor: ProductEditor & { publications: Publication[] };
  Preview: ComponentType<{ product: VisaProductDetail }>;
}) {
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const initial = useMemo(() => toForm(editor.content), [editor.content]);
  const [draftId, setDraftId] = useState(editor.draft_id);
  const [version, setVersion] = useState(editor.version);
  const [dirty, setDirty] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [busy, setBusy] = useState(false);
  const [copyOpen, setCopyOpen] = useState(false);
  const watched = Form.useWatch([], form) as FormValues | undefined;
  const content = toContent({ ...initial, ...(watched ?? {}) });
  const { reference } = editor;
  const districts = reference.districts.filter((d) => d.visa_country_id === content.visa_country_id);
  const title = productTitle({
    country: reference.countries.find((c) => c.visa_country_id === content.visa_country_id)?.name ?? '',
    visa_type: reference.visa_types.find((v) => v.visa_type_id === content.visa_type_id)?.name ?? '',
    entry_times: content.entry_times,
    product_special_desc: content.product_special_desc,
  });

  function failed(error: unknown) {
    if (error instanceof ApiError && error.ret === CONFLICT) setConflict(true);
  }

  /** Saves the form as the draft; returns the draft's id and version, or null when refused. */
  async function save(): Promise<{ draft_id: number; version: number } | null> {
    const values = toContent({ ...initial, ...form.getFieldsValue(true) });
    try {
      const saved = await adminApi('/admin-api/catalogue/draft_save', {
        ...(draftId ? { draft_id: draftId } : editor.visa_product_id ? { visa_product_id: editor.visa_product_id } : {}),
        version,
        content: values,
      });
      setDraftId(saved.draft_id);
      setVersion(saved.version);
      setDirty(false);
      return saved;
    } catch (error) {
      failed(error);
      return null;
    }
  }

  async function saveDraft() {
    setBusy(true);
    const saved = await save();
    setBusy(false);
    if (!saved) return;
    toast.success('草稿已保存，发布后客人才能看到');
    if (!editor.visa_product_id && !editor.draft_id) navigate(`/admin/catalogue/edit?draft=${saved.draft_id}`, { replace: true });
  }

  async function publish() {
    setBusy(true);
    const saved = dirty || !draftId ? await save() : { draft_id: draftId, version };
    if (saved) {
      try {
        const published = await adminApi('/admin-api/catalogue/draft_publish', saved);
        toast.success('已发布，客人页面已更新');
        navigate(`/admin/catalogue/edit?product=${published.visa_product_id}`, { replace: true });
      } catch (error) {
        failed(error);
      }
    }
    setBusy(false);
  }

  async function discard() {
    if (!draftId) return;
    try {
      await adminApi('/admin-api/catalogue/draft_discard', { draft_id: draftId, version });
      toast.success('草稿已放弃');
      navigate(editor.visa_product_id ? `/admin/catalogue/edit?product=${editor.visa_product_id}` : '/admin/catalogue', { replace: true });
    } catch (error) {
      failed(error);
    }
  }

  const basics = (
    <div className="cat-grid">
      <Form.Item label="国家" name="visa_country_id">
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={reference.countries.map((c) => ({ value: c.visa_country_id, label: c.name }))}
          onChange={() => form.setFieldValue('consular_district_id', null)}
        />
      </Form.Item>
      <Form.Item label="签证类型" name="visa_type_id">
        <Select options={reference.visa_types.map((v) => ({ value: v.visa_type_id, label: v.name }))} />
      </Form.Item>
      <Form.Item label="领区" name="consular_district_id" tooltip="不选：该国所有领区通用（如电子签）">
        <Select allowClear placeholder="所有领区" options={districts.map((d) => ({ value: d.consular_district_id, label: d.name }))} />
      </Form.Item>
      <Form.Item label="入境次数" name="entry_times">
        <Radio.Group
          options={[
            { value: 0, label: '单次' },
            { value: 1, label: '两次' },
            { value: 2, label: '多次' },
          ]}
        />
      </Form.Item>
      <Form.Item label="产品说明（特别描述）" name="product_special_desc" className="cat-wide">
        <Input maxLength={100} showCount />
      </Form.Item>
      <Form.Item label="办理工作日" name="need_days">
        <InputNumber min={1} max={365} precision={0} />
      </Form.Item>
      <Form.Item label="办理时长说明" name="need_days_detail">
        <Input maxLength={100} placeholder="如：约 5 个工作日出签" />
      </Form.Item>
      <Form.Item label="停留天数" name="stay_days">
        <InputNumber min={1} max={3650} precision={0} />
      </Form.Item>
      <Form.Item label="有效期（天）" name="valid_days">
        <InputNumber min={1} max={3650} precision={0} />
      </Form.Item>
      <Form.Item label="出签率（%）" name="pass_rate" {...percent}>
        <InputNumber min={0} max={100} precision={2} />
      </Form.Item>
      <Form.Item label="价格（元）" name="sell_price" {...yuan}>
        <InputNumber min={0} precision={2} prefix="￥" />
      </Form.Item>
      <Form.Item label="企业价" name="has_discount" valuePropName="checked">
        <Switch />
      </Form.Item>
      {content.distributor_discount ? (
        <>
          <Form.Item label="企业价说明" name={['distributor_discount', 'desc']}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item label="企业价（元）" name={['distributor_discount', 'price']} {...yuan}>
            <InputNumber min={0} precision={2} prefix="￥" />
          </Form.Item>
        </>
      ) : null}
      <Form.Item label="拒签退全款" name="reject_refund" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item label="支持线下办理（网页下单）" name="offline" valuePropName="checked" tooltip="关闭：仅小程序办理">
        <Switch checkedChildren="网页可下单" unCheckedChildren="仅小程序" />
      </Form.Item>
      <Form.Item label="上架" name="listed" valuePropName="checked">
        <Switch checkedChildren="上架" unCheckedChildren="下架" />
      </Form.Item>
      <Form.Item label="需要面试/录指纹" name="need_interview" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item label="需要签证照片" name="has_photo" valuePropName="checked">
        <Switch />
      </Form.Item>
      {content.photo ? (
        <>
          <Form.Item label="照片底色" name={['photo', 'color']}>
            <Select options={PHOTO_COLORS} />
          </Form.Item>
          <Form.Item label="照片宽（毫米）" name={['photo', 'width']}>
            <InputNumber min={20} max={80} precision={0} />
          </Form.Item>
          <Form.Item label="照片高（毫米）" name={['photo', 'height']}>
            <InputNumber min={20} max={80} precision={0} />
          </Form.Item>
        </>
      ) : null}
    </div>
  );

  const pageContent = (
    <div className="cat-sections">
      <h3>基本信息（第一条显示在价格的“明细”里）</h3>
      <ListRows name={['basic_info']} label="基本信息" max={20} newRow={() => ({ title: '', content: '' })}>
        {(field) => (
          <>
            <Form.Item name={[field.name, 'title']} noStyle>
              <Input placeholder="标题" maxLength={50} style={{ width: 180 }} aria-label="基本信息标题" />
            </Form.Item>
            <Form.Item name={[field.name, 'content']} noStyle>
              <Input.TextArea placeholder="内容" maxLength={2000} autoSize={{ minRows: 1, maxRows: 4 }} aria-label="基本信息内容" />
            </Form.Item>
          </>
        )}
      </ListRows>
      <h3>特色信息条</h3>
      <ListRows name={['common_info']} label="特色信息" max={10} newRow={() => ({ type: 0, num: 0, unit: '', title: '' })}>
        {(field) => (
          <>
            <Form.Item name={[field.name, 'type']} noStyle>
              <Select
                style={{ width: 100 }}
                aria-label="类型"
                options={[
                  { value: 0, label: '数值' },
                  { value: 1, label: '文字' },
                ]}
              />
            </Form.Item>
            <Form.Item name={[field.name, 'num']} noStyle>
              <InputNumber min={0} precision={0} placeholder="数值" aria-label="数值" />
            </Form.Item>
            <Form.Item name={[field.name, 'unit']} noStyle>
              <Input placeholder="单位或文字" maxLength={50} style={{ width: 140 }} aria-label="单位或文字" />
            </Form.Item>
            <Form.Item name={[field.name, 'title']} noStyle>
              <Input placeholder="标题" maxLength={50} style={{ width: 140 }} aria-label="特色信息标题" />
            </Form.Item>
          </>
        )}
      </ListRows>
      <h3>办理步骤图标</h3>
      <ListRows name={['procedure']} label="步骤图标" max={10} newRow={() => ({ icon: 'form', title: '' })}>
        {(field) => (
          <>
            <Form.Item name={[field.name, 'icon']} noStyle>
              <Select
                style={{ width: 140 }}
                aria-label="图标"
                options={PROCEDURE_ICON_NAMES.map((icon) => ({ value: icon, label: PROCEDURE_ICON_LABELS[icon] }))}
              />
            </Form.Item>
            <Form.Item name={[field.name, 'title']} noStyle>
              <Input placeholder="文字" maxLength={50} style={{ width: 180 }} aria-label="步骤文字" />
            </Form.Item>
          </>
        )}
      </ListRows>
      <h3>办理流程</h3>
      <ListRows name={['handle_process']} label="流程步骤" max={20} newRow={() => ({ title: '', content: '' })}>
        {(field) => (
          <>
            <Form.Item name={[field.name, 'title']} noStyle>
              <Input placeholder="标题" maxLength={100} style={{ width: 180 }} aria-label="流程标题" />
            </Form.Item>
            <Form.Item name={[field.name, 'content']} noStyle>
              <Input.TextArea placeholder="内容" maxLength={2000} autoSize={{ minRows: 1, maxRows: 4 }} aria-label="流程内容" />
            </Form.Item>
          </>
        )}
      </ListRows>
      <Form.Item label="温馨提示" name="reminder">
        <Input.TextArea maxLength={5000} autoSize={{ minRows: 3, maxRows: 10 }} />
      </Form.Item>
    </div>
  );

  const checklists = (
    <>
      <Space className="cat-checklist-tools">
        <Button onClick={() => setCopyOpen(true)}>从其他产品复制清单</Button>
      </Space>
      <Tabs
        items={[0, 1, 2, 3, 4].map((identityId, index) => ({
          key: String(identityId),
          label: IDENTITIES[identityId as keyof typeof IDENTITIES],
          forceRender: true,
          children: <ChecklistTab index={index} />,
        }))}
      />
      <CopyChecklistDialog
        open={copyOpen}
        onClose={() => setCopyOpen(false)}
        onCopy={(copied) => {
          form.setFieldValue('checklists', copied);
          setDirty(true);
          toast.success('已复制清单，保存后生效');
        }}
      />
    </>
  );

  const preview = previewDetail(content, reference, { visa_product_id: editor.visa_product_id, ...editor.reviews });

  return (
    <div className="cat-editor" data-testid="product-editor">
      <div className="cat-editor-head">
        <div>
          <Link to="/admin/catalogue">← 产品管理</Link>
          <h1 className="cat-title">{title || '新产品'}</h1>
          <Space size={4} wrap>
            {editor.visa_product_id ? <Tag>编号 {editor.visa_product_id}</Tag> : <Tag color="blue">新产品</Tag>}
            {draftId ? <Tag color="orange">草稿 · 第 {version} 版</Tag> : editor.visa_product_id ? <Tag color="green">与已发布一致</Tag> : null}
            {dirty ? <Tag color="red">有未保存的修改</Tag> : null}
            {editor.visa_product_id ? (
              <Link to={`/admin/catalogue/reviews?product=${editor.visa_product_id}`}>管理评价（{editor.reviews.reviews} 条显示中）</Link>
            ) : null}
          </Space>
        </div>
        <Space wrap>
          {draftId ? (
            <Popconfirm title="放弃草稿？" description="草稿的修改将丢失，已发布的内容不变。" okText="放弃" cancelText="取消" onConfirm={discard}>
              <Button danger>放弃草稿</Button>
            </Popconfirm>
          ) : null}
          <Button onClick={saveDraft} loading={busy} disabled={conflict}>
            保存草稿
          </Button>
          <Popconfirm title="发布后客人立即看到新内容" description="已下的订单保留下单时的价格。" okText="发布" cancelText="取消" onConfirm={publish}>
            <Button type="primary" loading={busy} disabled={conflict || (!dirty && !draftId)}>
              发布
            </Button>
          </Popconfirm>
        </Space>
      </div>
      {conflict ? <EditorConflict what="该产品" /> : null}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onValuesChange={() => setDirty(true)} requiredMark={false}>
        <Tabs
          items={[
            { key: 'basics', label: '基本与价格', forceRender: true, children: basics },
            { key: 'content', label: '页面内容', forceRender: true, children: pageContent },
            { key: 'checklists', label: '材料清单', forceRender: true, children: checklists },
            { key: 'preview', label: '预览', children: <Preview product={preview} /> },
            ...(editor.visa_product_id ? [{ key: 'publications', label: '发布记录', children: <PublicationList list={editor.publications} /> }] : []),
          ]}
        />
      </Form>
    </div>
  );
}
