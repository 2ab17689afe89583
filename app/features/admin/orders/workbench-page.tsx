// 订单工作台 (/admin/orders/:userOrderId), built around the order's next
// action (issue 27): a sticky header (order, customer, step, due time, the
// next action and any action of this step a rule refuses now, with its
// reason); the current step's task first — at 资料审核中 the keyboard review
// (fast-review.tsx), later the step's own panel; every other part of the
// order (applicants and files, order and product, payments, log, price
// difference, refund) in a collapsed panel that is made only when opened, so
// the server renders the task and not 200 file tiles (issue 24 item 6). All
// from the route loader's one read (the operator's workbench view, with the
// order's version, allowed_events and blocked_events). Actions go through
// useWorkbenchAction (or the review's own queue), which read the view again.
import { Alert, Button, ConfigProvider, Descriptions, Tag, type ThemeConfig } from 'antd';
import { Fragment } from 'react';
import { Link } from 'react-router';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import { formatDateTime, formatPrice } from '../../../../common/format';
import { atStep } from '../../../../common/order';
import { PAYMENT_CHANNELS, PAYMENT_STATUSES, type PaymentChannel, type PaymentStatus } from '../../../../common/ordering';
import { paymentKindLabel } from '../../../../common/price-difference';
import { theme } from '../../../theme';
import { adminApi } from '../admin-api';
import { FastReview } from './fast-review';
import { InterviewPanel } from './interview-panel';
import { PageCheckPanel } from './page-check-panel';
import { PriceDifferencePanel } from './price-difference-panel';
import { RefundPanel } from './refund-panel';
import { hasMail, mailHint, mailIsTask, MailPanel } from './mail-panel';
import { ResultPanel } from './result-panel';
import { ShipBackPanel } from './ship-back-panel';
import { TravellerMessagesPanel } from './traveller-messages-panel';
import { allows, useWorkbenchAction } from './use-workbench-action';
import { WorkbenchFold } from './workbench-fold';
import { nextAction } from './workbench-next';
import './orders.css';

/**
 * The workbench's antd components take their styles from the admin layout's static stylesheet
 * (scripts/antd-styles.tsx: every component its routes import, for the same theme and CSS-variable
 * scope) instead of registering them one instance at a time (issue 24 item 6, decision 0035).
 */
const STATIC_STYLES: ThemeConfig = { cssVar: theme.cssVar, zeroRuntime: true };

export function WorkbenchPage({ bench, supervisor }: { bench: AdminWorkbench; supervisor: boolean }) {
  const { busy, run } = useWorkbenchAction();
  const { order, product, panels } = bench;
  const canReview = bench.can_review && allows(bench, 'material_review');
  const inReview = atStep(order, 'material_review');
  // 邮寄资料 is a card at the top while it is the task, else a fold among the others.
  const mailTask = mailIsTask(bench);
  const next = nextAction(bench);
  const fileCount = bench.applicants.reduce((sum, a) => sum + a.items.reduce((n, item) => n + item.files.length, 0), 0);
  const shortPassports = bench.applicants.filter((a) => a.passport_warning !== null).length;
  const priceDifferences = panels.price_difference?.list.length ?? 0;
  const refunds = panels.refund?.list.length ?? 0;
  const travellerMessages = panels.traveller_messages?.list ?? [];
  const failedMessages = travellerMessages.filter((m) => m.status === 'failed').length;

  function take() {
    void run('take', { call: () => adminApi('/admin-api/order/take', { user_order_id: order.user_order_id }, { toast: false }), done: '已领取' });
  }

  return (
    <ConfigProvider theme={STATIC_STYLES}>
      <div data-testid="admin-workbench">
        <header className="aw-sticky" data-testid="workbench-header">
          <div className="aw-head">
            <h1 className="admin-page-title">
              订单 {order.order_no}
              <Tag color="blue" data-testid="workbench-step">
                {order.step_label ?? order.status_label}
              </Tag>
              {order.overdue ? <Tag color="red">已逾期</Tag> : null}
              {order.departure_at_risk ? <Tag color="red">出发有风险</Tag> : null}
            </h1>
            <div className="aw-head-actions">
              <Link to="/admin/orders">返回队列</Link>
              {order.assignee === null && allows(bench, 'assign') ? (
                <Button type="primary" loading={busy === 'take'} onClick={take} data-testid="workbench-take">
                  领取
                </Button>
              ) : null}
            </div>
          </div>
          <div className="aw-head-facts">
            <span>
              客户：{order.enterprise_name}
              {order.account_name ? ` · ${order.account_name}` : ''}
            </span>
            <span>办理人员：{order.assignee?.name ?? '未分配'}</span>
            <span className={order.overdue ? 'aw-overdue' : undefined}>到期：{order.step_due_at ? formatDateTime(order.step_due_at) : '—'}</span>
            <span>出发：{order.departure_date}</span>
          </div>
          <p className="aw-next" data-testid="workbench-next">
            {next.text}
          </p>
          {next.blocked.length > 0 ? (
            <ul className="aw-blocked" data-testid="workbench-blocked">
              {next.blocked.map((b) => (
                <li key={b.event}>
                  <button type="button" disabled aria-describedby={`blocked-${b.event}`}>
                    {b.label}
                  </button>
                  <span id={`blocked-${b.event}`}>暂不可用：{b.reason}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </header>
        {inReview ? (
          <section className="admin-card aw-card" aria-label="资料审核">
            <Alert
              type={bench.can_review ? 'info' : 'warning'}
              showIcon
              title={
                bench.can_review
                  ? `第 ${order.review_round} 轮资料审核：还有 ${bench.pending_count} 个文件待审核。最后一个文件审核后本轮自动结束。`
                  : '请先领取该订单再审核（只有办理人员或主管可以审核）'
              }
              data-testid="workbench-review-hint"
              style={{ marginBottom: 12 }}
            />
            <FastReview bench={bench} canReview={canReview} />
          </section>
        ) : null}
        <PageCheckPanel view={panels.page_check} bench={bench} />
        <InterviewPanel panel={panels.interview} bench={bench} />
        <ResultPanel view={panels.result} bench={bench} />
        <ShipBackPanel view={panels.ship_back} bench={bench} />
        {mailTask ? <MailPanel mail={panels.mail} bench={bench} /> : null}
        <div className="aw-folds">
          {!mailTask && hasMail(panels.mail) ? (
            <WorkbenchFold title="邮寄资料" hint={mailHint(panels.mail)} testId="fold-mail">
              {() => <MailPanel mail={panels.mail} bench={bench} folded />}
            </WorkbenchFold>
          ) : null}
          {inReview ? null : (
            <WorkbenchFold title="申请人与资料" hint={`${bench.applicants.length} 位申请人 · ${fileCount} 个文件`} testId="fold-files">
              {() => <FastReview bench={bench} canReview={false} />}
            </WorkbenchFold>
          )}
          <WorkbenchFold
            title="申请人"
            hint={`${bench.applicants.map((a) => a.name).join('、')}${shortPassports > 0 ? ` · ${shortPassports} 位护照有效期不足` : ''}`}
            // A passport that runs out too soon is the operator's to see without looking for it (issue 28).
            open={shortPassports > 0}
            testId="fold-applicants"
          >
            {() => (
              <table className="aw-table">
                <thead>
                  <tr>
                    <th>姓名</th>
                    <th>身份</th>
                    <th>手机号</th>
                    <th>邮箱</th>
                    <th>护照号</th>
                    <th>护照有效期至</th>
                    {product.need_interview ? <th>面试/录指纹</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {bench.applicants.map((a) => (
                    <Fragment key={a.applicant_id}>
                      <tr data-testid="workbench-applicant">
                        <td>{a.name}</td>
                        <td>{a.identity_label}</td>
                        <td>{a.mobile_phone}</td>
                        <td>{a.email ?? '—'}</td>
                        <td data-testid="workbench-applicant-passport-no">{a.passport_no ?? '—'}</td>
                        <td data-testid="workbench-applicant-passport-expiry">{a.passport_expiry ?? '—'}</td>
                        {product.need_interview ? (
                          <td>{a.interview ? `${a.interview.date} ${a.interview.start_time}–${a.interview.end_time}` : '未预约'}</td>
                        ) : null}
                      </tr>
                      {a.passport_warning ? (
                        <tr className="aw-applicant-warning-row">
                          <td colSpan={product.need_interview ? 7 : 6}>
                            <Alert type="warning" showIcon title={`${a.name}：${a.passport_warning}`} data-testid="workbench-passport-warning" />
                          </td>
                        </tr>
                      ) : null}
                    </Fragment>
                  ))}
                </tbody>
              </table>
            )}
          </WorkbenchFold>
          <WorkbenchFold title="订单与产品" hint={`${product.title} · ${formatPrice(order.total_amount)}`} testId="fold-order">
            {() => (
              <Descriptions
                size="small"
                column={{ xs: 1, md: 2 }}
                items={[
                  { key: 'enterprise', label: '企业', children: order.enterprise_name },
                  { key: 'account', label: '下单账号', children: order.account_name },
                  { key: 'status', label: '状态', children: `${order.status_label}${order.step_label ? ` · ${order.step_label}` : ''}` },
                  { key: 'entered', label: '进入本步骤', children: order.step_entered_at ? formatDateTime(order.step_entered_at) : '—' },
                  { key: 'effect', label: '生效日期', children: order.effect_date ?? '同出发日期' },
                  { key: 'total', label: '订单金额', children: formatPrice(order.total_amount) },
                  { key: 'paid', label: '支付时间', children: order.paid_at ? formatDateTime(order.paid_at) : '—' },
                  { key: 'title', label: '产品', children: product.title },
                  { key: 'country', label: '国家', children: `${product.country} · ${product.visa_type}` },
                  { key: 'district', label: '领区', children: product.consular_district ?? '—' },
                  { key: 'days', label: '办理时长', children: `${product.need_days} 个工作日` },
                  { key: 'interview', label: '面试/录指纹', children: product.need_interview ? '需要' : '不需要' },
                  { key: 'mailed', label: '纸质资料', children: product.mailed_materials ? '需邮寄' : '无需邮寄' },
                  { key: 'price', label: '单价', children: formatPrice(product.unit_price) },
                  {
                    key: 'address',
                    label: '回寄地址',
                    children: bench.return_address
                      ? `${bench.return_address.name} ${bench.return_address.mobile_phone} ${bench.return_address.region}${bench.return_address.detail}`
                      : '无',
                  },
                ]}
              />
            )}
          </WorkbenchFold>
          {panels.price_difference ? (
            <WorkbenchFold
              title="补差价"
              hint={priceDifferences > 0 ? `${priceDifferences} 笔` : null}
              open={priceDifferences > 0}
              testId="fold-price-difference"
            >
              {() => <PriceDifferencePanel panel={panels.price_difference} bench={bench} />}
            </WorkbenchFold>
          ) : null}
          {panels.refund ? (
            <WorkbenchFold title="退款" hint={refunds > 0 ? `${refunds} 笔` : null} open={refunds > 0} testId="fold-refund">
              {() => <RefundPanel panel={panels.refund} bench={bench} supervisor={supervisor} />}
            </WorkbenchFold>
          ) : null}
          {panels.traveller_messages ? (
            <WorkbenchFold
              title="申请人短信与邮件"
              hint={travellerMessages.length > 0 ? `${travellerMessages.length} 条${failedMessages > 0 ? ` · ${failedMessages} 条失败` : ''}` : null}
              open={failedMessages > 0}
              testId="fold-traveller-messages"
            >
              {() => <TravellerMessagesPanel panel={panels.traveller_messages!} />}
            </WorkbenchFold>
          ) : null}
          <WorkbenchFold title="支付记录" hint={`${bench.payments.length} 笔`} testId="fold-payments">
            {() => (
              <table className="aw-table">
                <thead>
                  <tr>
                    <th>渠道</th>
                    <th>金额</th>
                    <th>状态</th>
                    <th>时间</th>
                  </tr>
                </thead>
                <tbody>
                  {bench.payments.map((row) => (
                    <tr key={row.out_trade_no}>
                      <td>
                        {PAYMENT_CHANNELS[row.channel as PaymentChannel] ?? row.channel}
                        <div className="aw-muted">{paymentKindLabel(row.price_difference_id)}</div>
                      </td>
                      <td>{formatPrice(row.amount)}</td>
                      <td>{PAYMENT_STATUSES[row.status as PaymentStatus] ?? row.status}</td>
                      <td>{formatDateTime(row.paid_at ?? row.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </WorkbenchFold>
          <WorkbenchFold title="订单日志" hint={`${bench.events.length} 条`} testId="fold-events">
            {() => (
              <ol className="aw-log" data-testid="workbench-events">
                {[...bench.events].reverse().map((event) => (
                  <li key={event.event_id}>
                    <div>
                      {event.event_label}
                      {event.actor_name ? <span className="aw-muted"> · {event.actor_name}</span> : null}
                    </div>
                    {event.detail ? <div className="aw-muted">{event.detail}</div> : null}
                    <div className="aw-muted">{formatDateTime(event.created_at)}</div>
                  </li>
                ))}
              </ol>
            )}
          </WorkbenchFold>
        </div>
      </div>
    </ConfigProvider>
  );
}
