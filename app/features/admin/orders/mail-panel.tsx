// The workbench's mail panel (issue 10): what the customer must mail, the
// parcels with their tracking, and — in awaiting_mail, once something was
// sent — 已收到 (the order moves to page_check) or 缺少资料 with a note (the
// customer is asked to send again). Its data is the workbench view's `mail`
// (a prop); each action carries the order version of that read and goes
// through useWorkbenchAction, which reads the workbench again.
import { Alert, Button, type ButtonProps, Input, Modal, Tag } from 'antd';
import { useState } from 'react';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import type { MailList } from '../../../../common/contracts/mail';
import { MAIL_LIMITS } from '../../../../common/contracts/mail';
import { ShipmentCard } from '../../../components/courier/shipment-card';
import { adminApi } from '../admin-api';
import { allows, useWorkbenchAction } from './use-workbench-action';

/** The mail panel is the current step's task while the operator may mark the parcel received (待邮寄资料). */
export function mailIsTask(bench: AdminWorkbench): boolean {
  return allows(bench, 'mail_receive');
}

/** Anything to show: materials to mail or parcels sent. */
export function hasMail(mail: MailList | null): mail is MailList {
  return mail !== null && (mail.applicants.length > 0 || mail.shipments.length > 0);
}

/** What the collapsed panel says: the parcels sent, or that none was. */
export function mailHint(mail: MailList): string {
  return mail.shipments.length > 0 ? `${mail.shipments.length} 个快递` : '客户尚未寄出资料';
}

/**
 * The panel: a card at the top while it is the current step's task; otherwise inside its
 * collapsed fold (`folded`), without the card's own heading.
 */
export function MailPanel({ mail, bench, folded = false }: { mail: MailList | null; bench: AdminWorkbench; folded?: boolean }) {
  const { busy, run } = useWorkbenchAction();
  const [confirming, setConfirming] = useState(false);
  const [missingOpen, setMissingOpen] = useState(false);
  const [note, setNote] = useState('');
  if (!hasMail(mail)) return null;
  const { order } = mail;

  function act(kind: 'receive' | 'missing') {
    if (kind === 'receive') {
      void run(kind, {
        call: () => adminApi('/admin-api/order/mail_receive', { user_order_id: order.user_order_id, version: order.version }, { toast: false }),
        done: '已标记收到，订单进入待确认核对页',
        then: () => setConfirming(false),
      });
    } else {
      void run(kind, {
        call: () => adminApi('/admin-api/order/mail_missing', { user_order_id: order.user_order_id, version: order.version, note }, { toast: false }),
        done: '已通知客户补寄',
        then: () => {
          setMissingOpen(false);
          setNote('');
        },
      });
    }
  }

  const shipments = [...mail.shipments].reverse();
  return (
    <section className={folded ? undefined : 'admin-card aw-card'} data-testid="workbench-mail">
      {folded ? null : <h2>邮寄资料</h2>}
      {mail.missing ? <Alert type="warning" showIcon title={`已要求补寄：${mail.missing.note}`} style={{ marginBottom: 12 }} /> : null}
      <div className="aw-mail-list">
        {mail.applicants.map((applicant) => (
          <div key={applicant.applicant_id}>
            <strong>{applicant.name}</strong>：
            {applicant.materials.map((m) => (
              <Tag key={m.material_id}>{m.name}</Tag>
            ))}
          </div>
        ))}
      </div>
      {shipments.length === 0 ? (
        <p className="aw-muted">客户尚未寄出资料。</p>
      ) : (
        shipments.map((shipment) => <ShipmentCard key={shipment.shipment_id} shipment={shipment} />)
      )}
      {mail.can_check && allows(bench, 'mail_receive') ? (
        <div className="aw-mail-actions">
          <Button type="primary" onClick={() => setConfirming(true)} data-testid="mail-receive">
            已收到
          </Button>
          <Button danger onClick={() => setMissingOpen(true)} data-testid="mail-missing">
            缺少资料
          </Button>
        </div>
      ) : null}
      <Modal
        open={confirming}
        title="确认已收到纸质资料？"
        okText="已收到"
        cancelText="取消"
        confirmLoading={busy === 'receive'}
        onOk={() => void act('receive')}
        onCancel={() => setConfirming(false)}
        okButtonProps={{ 'data-testid': 'mail-receive-confirm' } as ButtonProps}
      >
        请逐项核对申请人的纸质资料，确认齐全后订单进入“待确认核对页”，并通知客户。
      </Modal>
      <Modal
        open={missingOpen}
        title="缺少资料"
        okText="通知客户补寄"
        cancelText="取消"
        confirmLoading={busy === 'missing'}
        okButtonProps={{ disabled: note.trim() === '', 'data-testid': 'mail-missing-confirm' } as ButtonProps}
        onOk={() => void act('missing')}
        onCancel={() => setMissingOpen(false)}
      >
        <Input.TextArea
          aria-label="缺少的资料"
          placeholder="请写明缺少哪位申请人的哪些资料"
          value={note}
          maxLength={MAIL_LIMITS.noteMaxLength}
          showCount
          rows={4}
          onChange={(event) => setNote(event.target.value)}
          data-testid="mail-missing-note"
        />
      </Modal>
    </section>
  );
}
