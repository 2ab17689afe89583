// 核对签证页 (/order/order-page-check/:userOrderId, issue 10): every page the
// operator published for each applicant — images in the image viewer, PDFs
// inline in a frame of the served file — and, per applicant, 确认无误 or
// 申请修改 with a comment naming the page (a PDF's page number too). Each
// decision carries the order version shown here; a 2032 (the order changed,
// e.g. a republication) reloads. The route's loader reads the pages.
import { CheckCircleFilled, FilePdfOutlined, LeftOutlined } from '@ant-design/icons';
import { Alert, App, Button, Form, Input, InputNumber, Modal, Result, Select, Tag } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { PAGE_CHECK_LIMITS, type PageCheckApplicantView, type PageCheckView } from '../../../common/contracts/page-check';
import { formatDateTime } from '../../../common/format';
import { eventAllowed, stepIs } from '../../../common/order';
import { ImageThumb } from '../../components/image-viewer';
import { LoadingOverlay } from '../../components/loading-overlay';
import { ApiError, api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import './order.css';
import './page-check.css';

export const PAGE_CHECK_STATUS_COLORS = { none: 'default', draft: 'default', published: 'processing', correction: 'warning', confirmed: 'success' } as const;

type Page = PageCheckApplicantView['pages'][number];

const isPdf = (page: Page) => page.content_type === 'application/pdf';

/** One page: an image thumbnail opening the viewer over the applicant's images, or the PDF inline. */
function PageTile({ page, index, gallery }: { page: Page; index: number; gallery: Array<{ src: string; title: string }> }) {
  const label = `第 ${index + 1} 页 · ${page.file_name}`;
  return (
    <figure className="pc-page" data-testid="page-check-page" data-page-id={page.page_id}>
      {isPdf(page) ? (
        <iframe className="pc-pdf" src={page.url} title={label} loading="lazy" />
      ) : (
        <ImageThumb
          className="pc-image"
          src={page.url}
          title={label}
          gallery={gallery}
          index={gallery.findIndex((image) => image.src === page.url)}
          loading="lazy"
        />
      )}
      <figcaption className="pc-page-caption">
        <span className="pc-page-no">第 {index + 1} 页</span>
        <span className="pc-page-name" title={page.file_name}>
          {isPdf(page) ? <FilePdfOutlined /> : null} {page.file_name}
        </span>
        {isPdf(page) ? (
          <a href={page.url} target="_blank" rel="noreferrer" className="pc-open">
            新窗口打开
          </a>
        ) : null}
      </figcaption>
    </figure>
  );
}

interface CorrectionForm {
  comments: Array<{ page_id: number; page_no?: number | null; comment: string }>;
}

function CorrectionDialog({
  applicant,
  open,
  busy,
  onCancel,
  onSubmit,
}: {
  applicant: PageCheckApplicantView;
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (form: CorrectionForm) => void;
}) {
  const [form] = Form.useForm<CorrectionForm>();
  const options = applicant.pages.map((page, index) => ({ value: page.page_id, label: `第 ${index + 1} 页 · ${page.file_name}` }));
  return (
    <Modal
      open={open}
      title={`申请修改：${applicant.name}`}
      okText="提交修改意见"
      cancelText="取消"
      confirmLoading={busy}
      onCancel={onCancel}
      onOk={() => form.submit()}
      destroyOnHidden
      data-testid="page-check-correction-dialog"
    >
      <Form form={form} layout="vertical" initialValues={{ comments: [{ page_id: options[0]?.value, comment: '' }] }} onFinish={onSubmit} preserve={false}>
        <Form.List name="comments">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => (
                <div key={field.key} className="pc-comment-row" data-testid="page-check-comment-row">
                  <div className="pc-comment-where">
                    <Form.Item name={[field.name, 'page_id']} label={`意见 ${index + 1}：页面`} rules={[{ required: true, message: '请选择页面' }]}>
                      <Select options={options} aria-label={`意见 ${index + 1} 的页面`} />
                    </Form.Item>
                    <Form.Item noStyle shouldUpdate>
                      {() => {
                        const pageId = form.getFieldValue(['comments', field.name, 'page_id']) as number | undefined;
                        const page = applicant.pages.find((p) => p.page_id === pageId);
                        return page && isPdf(page) ? (
                          <Form.Item name={[field.name, 'page_no']} label="PDF 第几页">
                            <InputNumber min={1} max={999} precision={0} placeholder="选填" aria-label="PDF 第几页" />
                          </Form.Item>
                        ) : null;
                      }}
                    </Form.Item>
                  </div>
                  <Form.Item name={[field.name, 'comment']} label="修改意见" rules={[{ required: true, whitespace: true, message: '请填写需要修改的内容' }]}>
                    <Input.TextArea
                      rows={3}
                      maxLength={PAGE_CHECK_LIMITS.commentMaxLength}
                      showCount
                      placeholder="例如：护照号码应为 E12345678"
                      aria-label={`意见 ${index + 1} 的内容`}
                    />
                  </Form.Item>
                  {fields.length > 1 ? (
                    <Button type="link" danger size="small" onClick={() => remove(field.name)}>
                      删除这条意见
                    </Button>
                  ) : null}
                </div>
              ))}
              {fields.length < PAGE_CHECK_LIMITS.maxCommentsPerRequest ? (
                <Button type="dashed" block onClick={() => add({ page_id: options[0]?.value, comment: '' })}>
                  再添加一条意见
                </Button>
              ) : null}
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

export function PageCheckPage({ view }: { view: PageCheckView }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const { modal } = App.useApp();
  const [busy, setBusy] = useState<number | null>(null);
  const [correcting, setCorrecting] = useState<PageCheckApplicantView | null>(null);
  const id = view.user_order_id;
  const inCheck = stepIs(view, 'page_check');
  const published = view.applicants.some((a) => a.pages.length > 0);

  async function run(
    applicantId: number,
    call: () => Promise<{ all_confirmed: boolean; step: string | null; step_label: string }>,
    done: string,
  ): Promise<boolean> {
    setBusy(applicantId);
    try {
      const result = await call();
      toast.success(
        result.all_confirmed
          ? stepIs(result, 'page_check')
            ? '核对页已全部确认，我们将尽快为您递交使馆'
            : `核对页已全部确认，订单进入“${result.step_label}”`
          : done,
      );
      void revalidator.revalidate();
      return true;
    } catch (error) {
      if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(error instanceof ApiError ? error.message : '操作失败，请重试');
      if (error instanceof ApiError && error.ret > 0) void revalidator.revalidate();
      return false;
    } finally {
      setBusy(null);
    }
  }

  const confirm = (applicant: PageCheckApplicantView) =>
    modal.confirm({
      title: `确认 ${applicant.name} 的核对页无误？`,
      content: '确认后我们将按此申请表递交，无法再修改。',
      okText: '确认无误',
      cancelText: '再看看',
      onOk: () =>
        run(
          applicant.applicant_id,
          () => api('/www/order/page_check_confirm', { user_order_id: id, applicant_id: applicant.applicant_id, version: view.version }, { toast: false }),
          `已确认 ${applicant.name} 的核对页`,
        ),
    });

  const askCorrection = async (form: CorrectionForm) => {
    if (!correcting) return;
    const ok = await run(
      correcting.applicant_id,
      () =>
        api(
          '/www/order/page_check_correction',
          {
            user_order_id: id,
            applicant_id: correcting.applicant_id,
            version: view.version,
            comments: form.comments.map((c) => ({ page_id: c.page_id, page_no: c.page_no ?? null, comment: c.comment })),
          },
          { toast: false },
        ),
      '修改意见已提交，我们修改后会重新发布',
    );
    if (ok) setCorrecting(null);
  };

  return (
    <div className="order-page pc-page-root" data-testid="page-check-page">
      <Link to="/order/order-list" className="order-back">
        <LeftOutlined /> 我的订单
      </Link>
      <LoadingOverlay loading={revalidator.state === 'loading'} loadingText="正在加载核对页">
        <h1 className="order-page-title">核对签证页</h1>
        <p className="pc-sub">
          订单 {id} · {view.product_title}
        </p>
        {!published ? (
          <Result
            status="info"
            data-testid="page-check-empty"
            title={inCheck ? '核对页准备中' : '该订单当前无需核对签证页'}
            subTitle={inCheck ? '我们正在为您填写申请表，核对页发布后会通知您确认。' : `订单${view.step_label ? `当前为“${view.step_label}”` : '已结束'}。`}
            extra={
              <Button type="primary" onClick={() => navigate(`/order/order-detail/${id}`)}>
                查看订单详情
              </Button>
            }
          />
        ) : (
          <>
            {view.all_confirmed ? (
              <Alert
                className="pc-alert"
                type="success"
                showIcon
                data-testid="page-check-all-confirmed"
                title="核对页已全部确认"
                description={
                  view.submitted_date
                    ? `已于 ${view.submitted_date} 递交使馆，请耐心等待审理结果。`
                    : view.need_interview
                      ? '下一步：面试/录指纹，通知发布后会提醒您。'
                      : '我们将尽快为您递交使馆，递交后会通知您。'
                }
              />
            ) : (
              <Alert
                className="pc-alert"
                type="info"
                showIcon
                title="请逐页核对申请表"
                description="请仔细核对姓名、护照号码、日期、地址等信息。无误请点击“确认无误”；有误请点击“申请修改”，指明页面并写明修改意见，我们修改后会重新发布。"
              />
            )}
            {view.applicants.map((applicant, index) => {
              const gallery = applicant.pages
                .filter((p) => !isPdf(p))
                .map((p) => ({ src: p.url, title: `第 ${applicant.pages.indexOf(p) + 1} 页 · ${p.file_name}` }));
              const canConfirm = eventAllowed(applicant, 'page_check_confirm');
              const canCorrect = eventAllowed(applicant, 'page_check_correction');
              return (
                <section
                  key={applicant.applicant_id}
                  className="order-section pc-applicant"
                  data-testid="page-check-applicant"
                  data-applicant-id={applicant.applicant_id}
                  data-status={applicant.status}
                  aria-label={`${applicant.name} 的核对页`}
                >
                  <header className="pc-applicant-head">
                    <span className="pc-applicant-index">{index + 1}</span>
                    <h2 className="pc-applicant-name">{applicant.name}</h2>
                    <Tag color={PAGE_CHECK_STATUS_COLORS[applicant.status]} data-testid="page-check-status">
                      {applicant.status === 'confirmed' ? <CheckCircleFilled /> : null} {applicant.status_label}
                    </Tag>
                    {applicant.round > 1 ? <span className="pc-muted">第 {applicant.round} 次发布</span> : null}
                  </header>
                  {applicant.pages.length === 0 ? (
                    <p className="pc-muted">核对页准备中，发布后会通知您。</p>
                  ) : (
                    <div className="pc-pages">
                      {applicant.pages.map((page, n) => (
                        <PageTile key={page.page_id} page={page} index={n} gallery={gallery} />
                      ))}
                    </div>
                  )}
                  {applicant.status === 'correction' ? (
                    <Alert className="pc-alert" type="warning" showIcon title="已提交修改意见，我们修改后会重新发布，届时请再次核对。" />
                  ) : null}
                  {applicant.comments.length > 0 ? (
                    <div className="pc-comments">
                      <h3 className="pc-comments-title">修改意见</h3>
                      <ul>
                        {applicant.comments.map((c) => (
                          <li key={c.comment_id} className="pc-comment" data-testid="page-check-comment">
                            <span className="pc-comment-page">{c.page_label}</span>
                            <span className="pc-comment-text">{c.comment}</span>
                            <span className="pc-muted pc-comment-time">
                              第 {c.round} 次发布 · {formatDateTime(c.created_at)}
                            </span>
                          </li>
                        ))}
                      </ul>
                    </div>
                  ) : null}
                  {canConfirm || canCorrect ? (
                    <footer className="pc-actions">
                      {canCorrect ? (
                        <Button onClick={() => setCorrecting(applicant)} disabled={busy !== null} data-testid="page-check-ask-correction">
                          申请修改
                        </Button>
                      ) : null}
                      {canConfirm ? (
                        <Button
                          type="primary"
                          onClick={() => confirm(applicant)}
                          loading={busy === applicant.applicant_id}
                          disabled={busy !== null && busy !== applicant.applicant_id}
                          data-testid="page-check-confirm"
                        >
                          确认无误
                        </Button>
                      ) : null}
                    </footer>
                  ) : null}
                </section>
              );
            })}
            <div className="pc-bottom">
              <Button onClick={() => navigate(`/order/order-detail/${id}`)}>订单详情</Button>
            </div>
          </>
        )}
      </LoadingOverlay>
      {correcting ? (
        <CorrectionDialog
          applicant={correcting}
          open
          busy={busy === correcting.applicant_id}
          onCancel={() => setCorrecting(null)}
          onSubmit={(form) => void askCorrection(form)}
        />
      ) : null}
    </div>
  );
}
