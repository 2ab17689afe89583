// 订单工作台 (/admin/orders/:userOrderId): the order and its product snapshot,
// every applicant with every file (images in antd's Image preview, PDFs
// inline) and its review, interview times, the return address, payments and
// the event log, and every panel — all from the route loader's one read (the
// operator's workbench view, with the order's version and allowed_events).
// Each action goes through useWorkbenchAction, which reads the view again;
// each review carries the order version shown here (a 2032 — someone else
// changed the order — shows the order as it now is).
import { useState } from 'react';
import { Alert, Button, ConfigProvider, Descriptions, Empty, Image, Table, Tag, Timeline, type ThemeConfig } from 'antd';
import { Link } from 'react-router';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import { formatDateTime, formatPrice } from '../../../../common/format';
import { atStep } from '../../../../common/order';
import { PAYMENT_CHANNELS, PAYMENT_STATUSES, type PaymentChannel, type PaymentStatus } from '../../../../common/ordering';
import { paymentKindLabel } from '../../../../common/price-difference';
import type { ReviewReason } from '../../../../common/review';
import { toast } from '../../../lib/toast';
import { theme } from '../../../theme';
import { adminApi } from '../admin-api';
import { InterviewPanel } from './interview-panel';
import { FileReview } from './file-review';
import { PageCheckPanel } from './page-check-panel';
import { PriceDifferencePanel } from './price-difference-panel';
import { RefundPanel } from './refund-panel';
import { MailPanel } from './mail-panel';
import { ResultPanel } from './result-panel';
import { ShipBackPanel } from './ship-back-panel';
import { allows, useWorkbenchAction } from './use-workbench-action';
import './orders.css';

/**
 * The workbench's antd components take their styles from the admin layout's static stylesheet
 * (scripts/antd-styles.tsx: every component its routes import, for the same theme and CSS-variable
 * scope) instead of registering them one instance at a time: same classes, same look, and a
 * 20-applicant order's ~1,200 buttons, tags and images render without antd's per-instance style
 * work (issue 24 item 6, decision 0035).
 */
const STATIC_STYLES: ThemeConfig = { cssVar: theme.cssVar, zeroRuntime: true };

export function WorkbenchPage({ bench, supervisor }: { bench: AdminWorkbench; supervisor: boolean }) {
  const { busy, run } = useWorkbenchAction();
  const { order, product, panels } = bench;
  const canReview = bench.can_review && allows(bench, 'material_review');
  // Every image file of the order, in page order: one preview for all of them (made when first opened).
  const images = bench.applicants.flatMap((applicant) =>
    applicant.items.flatMap((item) =>
      item.files.filter((file) => file.content_type !== 'application/pdf').map((file) => ({ file, alt: `${applicant.name} ${item.name}：${file.file_name}` })),
    ),
  );
  const [preview, setPreview] = useState<number | null>(null);

  function review(fileId: number, result: 'pass' | 'no_pass', reasons: ReviewReason[], memo: string | null): Promise<boolean> {
    return run(`file:${fileId}`, {
      call: () =>
        adminApi(
          '/admin-api/order/file_review',
          { user_order_id: order.user_order_id, file_id: fileId, version: order.version, result, reasons, memo },
          { toast: false },
        ),
      done: (answer) =>
        answer.round_result === 'passed'
          ? `资料审核通过，订单进入“${answer.step_label}”`
          : answer.round_result === 'failed'
            ? null
            : result === 'pass'
              ? '已通过'
              : '已标记为不通过',
      then: (answer) => {
        if (answer.round_result === 'failed') toast.warning('本轮审核结束：有资料未通过，已通知客户重新上传');
      },
    });
  }

  function take() {
    void run('take', { call: () => adminApi('/admin-api/order/take', { user_order_id: order.user_order_id }, { toast: false }), done: '已领取' });
  }

  const inReview = atStep(order, 'material_review');

  return (
    <ConfigProvider theme={STATIC_STYLES}>
      <div data-testid="admin-workbench">
        <div className="aw-head">
          <h1 className="admin-page-title">
            订单 {order.order_no}
            <Tag color="blue" data-testid="workbench-step">
              {order.step_label ?? order.status_label}
            </Tag>
            {order.overdue ? <Tag color="red">已逾期</Tag> : null}
            {order.departure_at_risk ? <Tag color="red">出发有风险</Tag> : null}
          </h1>
          <div>
            <Link to="/admin/orders">返回队列</Link>
            {order.assignee === null && allows(bench, 'assign') ? (
              <Button type="primary" style={{ marginLeft: 12 }} loading={busy === 'take'} onClick={take} data-testid="workbench-take">
                领取
              </Button>
            ) : null}
          </div>
        </div>
        {inReview ? (
          <Alert
            className="aw-card"
            type={bench.can_review ? 'info' : 'warning'}
            showIcon
            title={
              bench.can_review
                ? `第 ${order.review_round} 轮资料审核：还有 ${bench.pending_count} 个文件待审核。最后一个文件审核后本轮自动结束。`
                : '请先领取该订单再审核（只有办理人员或主管可以审核）'
            }
            data-testid="workbench-review-hint"
          />
        ) : null}
        <PageCheckPanel view={panels.page_check} bench={bench} />
        <InterviewPanel panel={panels.interview} bench={bench} />
        <ResultPanel view={panels.result} bench={bench} />
        <ShipBackPanel view={panels.ship_back} bench={bench} />
        <div className="aw-grid">
          <div>
            <section className="admin-card aw-card">
              <h2>订单信息</h2>
              <Descriptions
                size="small"
                column={2}
                items={[
                  { key: 'enterprise', label: '企业', children: order.enterprise_name },
                  { key: 'account', label: '下单账号', children: order.account_name },
                  { key: 'status', label: '状态', children: `${order.status_label}${order.step_label ? ` · ${order.step_label}` : ''}` },
                  { key: 'assignee', label: '办理人员', children: order.assignee?.name ?? '未分配' },
                  { key: 'entered', label: '进入本步骤', children: order.step_entered_at ? formatDateTime(order.step_entered_at) : '—' },
                  { key: 'due', label: '到期时间', children: order.step_due_at ? formatDateTime(order.step_due_at) : '—' },
                  { key: 'departure', label: '出发日期', children: order.departure_date },
                  { key: 'effect', label: '生效日期', children: order.effect_date ?? '同出发日期' },
                  { key: 'total', label: '订单金额', children: formatPrice(order.total_amount) },
                  { key: 'paid', label: '支付时间', children: order.paid_at ? formatDateTime(order.paid_at) : '—' },
                ]}
              />
            </section>
            <section className="admin-card aw-card">
              <h2>申请人与资料</h2>
              {bench.applicants.map((applicant) => (
                <div key={applicant.applicant_id} className="aw-applicant" data-testid="workbench-applicant">
                  <h3 className="aw-applicant-name">
                    {applicant.name} <Tag>{applicant.identity_label}</Tag>
                  </h3>
                  <Descriptions
                    size="small"
                    column={2}
                    items={[
                      { key: 'phone', label: '手机号', children: applicant.mobile_phone },
                      { key: 'email', label: '邮箱', children: applicant.email ?? '—' },
                      { key: 'passport', label: '护照号', children: applicant.passport_no ?? '—' },
                      ...(product.need_interview
                        ? [
                            {
                              key: 'interview',
                              label: '面试/录指纹',
                              children: applicant.interview
                                ? `${applicant.interview.date} ${applicant.interview.start_time}–${applicant.interview.end_time}`
                                : '未预约',
                            },
                          ]
                        : []),
                    ]}
                  />
                  {applicant.items.map((item) => (
                    <div key={item.material_id ?? 'photo'} className="aw-item">
                      <div className="aw-item-head">
                        {item.name}
                        {item.required ? <Tag color="red">必备</Tag> : <Tag>选填</Tag>}
                      </div>
                      {item.attention.trim() ? <div className="aw-item-attention aw-muted">{item.attention.trim()}</div> : null}
                      {item.files.length === 0 ? (
                        <span className="aw-muted">未上传</span>
                      ) : (
                        <ul className="aw-files">
                          {item.files.map((file) => (
                            <FileReview
                              key={`${file.file_id}:${file.url}`}
                              file={file}
                              itemName={`${applicant.name} ${item.name}`}
                              canReview={canReview}
                              busy={busy === `file:${file.file_id}`}
                              onOpen={() => setPreview(images.findIndex((image) => image.file.file_id === file.file_id))}
                              onReview={(result, reasons, memo) => review(file.file_id, result, reasons, memo)}
                            />
                          ))}
                        </ul>
                      )}
                    </div>
                  ))}
                </div>
              ))}
            </section>
          </div>
          <div>
            <MailPanel mail={panels.mail} bench={bench} />
            <section className="admin-card aw-card">
              <h2>产品快照</h2>
              <Descriptions
                size="small"
                column={1}
                items={[
                  { key: 'title', label: '产品', children: product.title },
                  { key: 'country', label: '国家', children: `${product.country} · ${product.visa_type}` },
                  { key: 'district', label: '领区', children: product.consular_district ?? '—' },
                  { key: 'days', label: '办理时长', children: `${product.need_days} 个工作日` },
                  { key: 'interview', label: '面试/录指纹', children: product.need_interview ? '需要' : '不需要' },
                  { key: 'mailed', label: '纸质资料', children: product.mailed_materials ? '需邮寄' : '无需邮寄' },
                  { key: 'price', label: '单价', children: formatPrice(product.unit_price) },
                ]}
              />
            </section>
            <section className="admin-card aw-card">
              <h2>回寄地址</h2>
              {bench.return_address ? (
                <Descriptions
                  size="small"
                  column={1}
                  items={[
                    { key: 'name', label: '收件人', children: `${bench.return_address.name} ${bench.return_address.mobile_phone}` },
                    { key: 'address', label: '地址', children: `${bench.return_address.region}${bench.return_address.detail}` },
                  ]}
                />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="无" />
              )}
            </section>
            <PriceDifferencePanel panel={panels.price_difference} bench={bench} />
            <RefundPanel panel={panels.refund} bench={bench} supervisor={supervisor} />
            <section className="admin-card aw-card">
              <h2>支付记录</h2>
              <Table
                size="small"
                rowKey="out_trade_no"
                pagination={false}
                dataSource={bench.payments}
                columns={[
                  {
                    title: '渠道',
                    dataIndex: 'channel',
                    className: 'aw-nowrap',
                    render: (channel: string, row) => (
                      <>
                        {PAYMENT_CHANNELS[channel as PaymentChannel] ?? channel}
                        <div className="aw-muted">{paymentKindLabel(row.price_difference_id)}</div>
                      </>
                    ),
                  },
                  { title: '金额', dataIndex: 'amount', className: 'aw-nowrap', render: (amount: number) => formatPrice(amount) },
                  {
                    title: '状态',
                    dataIndex: 'status',
                    className: 'aw-nowrap',
                    render: (status: string) => PAYMENT_STATUSES[status as PaymentStatus] ?? status,
                  },
                  { title: '时间', dataIndex: 'paid_at', render: (at: number | null, row) => formatDateTime(at ?? row.created_at) },
                ]}
              />
            </section>
            <section className="admin-card aw-card" data-testid="workbench-events">
              <h2>订单日志</h2>
              <Timeline
                items={[...bench.events].reverse().map((event) => ({
                  key: event.event_id,
                  content: (
                    <div>
                      <div>
                        {event.event_label}
                        {event.actor_name ? <span className="aw-muted"> · {event.actor_name}</span> : null}
                      </div>
                      {event.detail ? <div className="aw-muted">{event.detail}</div> : null}
                      <div className="aw-muted">{formatDateTime(event.created_at)}</div>
                    </div>
                  ),
                }))}
              />
            </section>
          </div>
        </div>
        {preview !== null ? (
          <Image.PreviewGroup
            items={images.map(({ file, alt }) => ({ src: file.url, alt }))}
            preview={{ open: true, current: preview, onChange: (current) => setPreview(current), onOpenChange: (open) => (open ? null : setPreview(null)) }}
          />
        ) : null}
      </div>
    </ConfigProvider>
  );
}
