// 物流异常 in the ship-back panel (issue 25, decision 0039): each return
// parcel whose tracking stopped (not delivered COURIER_ATTENTION_DAYS after
// it was booked) or whose last event is a failed delivery or a return, with
// SF's words; and the operator's record of what became of it, with a note —
// 登记已签收 (return_confirm: the order completes) or 登记已退回
// (return_back: the order is submitted again, the passports can be shipped
// anew). Each button shows only while the lifecycle allows its event.
import { Alert, Button, type ButtonProps, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import { type AdminShipBack, RETURN_NOTE_LIMITS, RETURN_RECORD_OUTCOMES, type ReturnRecordOutcome } from '../../../../common/contracts/ship-back';
import { formatDateTime } from '../../../../common/format';
import { adminApi } from '../admin-api';
import { allows, useWorkbenchAction } from './use-workbench-action';

const EVENT_OF = { delivered: 'return_confirm', returned: 'return_back' } as const;

export function ReturnAttention({ view, bench }: { view: AdminShipBack; bench: AdminWorkbench }) {
  const { busy, run } = useWorkbenchAction();
  const [recording, setRecording] = useState<{ shipmentId: number; waybillNo: string; outcome: ReturnRecordOutcome } | null>(null);
  const [note, setNote] = useState('');
  if (view.attention.length === 0) return null;
  const { order } = view;
  const noteLength = [...note.trim()].length;

  function record() {
    if (!recording) return;
    void run('record', {
      call: () =>
        adminApi(
          '/admin-api/order/return_record',
          { user_order_id: order.user_order_id, version: order.version, shipment_id: recording.shipmentId, outcome: recording.outcome, note: note.trim() },
          { toast: false },
        ),
      done: (answer) => (recording.outcome === 'delivered' ? `已登记签收，订单${answer.status_label}` : '已登记快件退回，可重新寄回护照'),
      then: () => {
        setRecording(null);
        setNote('');
      },
    });
  }

  return (
    <div className="aw-return-attention" data-testid="return-attention">
      {view.attention.map((item) => (
        <Alert
          key={item.shipment_id}
          type="error"
          showIcon
          className="aw-return-attention-item"
          title={`物流异常：${item.reason_label}（运单号 ${item.waybill_no}）`}
          description={
            <>
              <div>
                {item.reason === 'no_delivery' ? `自 ${formatDateTime(item.since)} 起超过时限仍未签收` : `${formatDateTime(item.since)} ${item.remark ?? ''}`}
              </div>
              <div className="aw-muted">请联系快递公司或客户核实后登记结果。</div>
            </>
          }
          action={
            <Space orientation="vertical" size={6}>
              {(Object.keys(RETURN_RECORD_OUTCOMES) as ReturnRecordOutcome[])
                .filter((outcome) => allows(bench, EVENT_OF[outcome]))
                .map((outcome) => (
                  <Button
                    key={outcome}
                    size="small"
                    type={outcome === 'delivered' ? 'primary' : 'default'}
                    onClick={() => setRecording({ shipmentId: item.shipment_id, waybillNo: item.waybill_no, outcome })}
                    data-testid={`return-record-${outcome}`}
                  >
                    登记{RETURN_RECORD_OUTCOMES[outcome]}
                  </Button>
                ))}
            </Space>
          }
          data-testid="return-attention-item"
        />
      ))}
      <Modal
        open={recording !== null}
        title={recording ? `登记快件${RETURN_RECORD_OUTCOMES[recording.outcome]}（运单号 ${recording.waybillNo}）` : ''}
        okText="登记"
        cancelText="取消"
        confirmLoading={busy === 'record'}
        onOk={record}
        onCancel={() => setRecording(null)}
        okButtonProps={
          { disabled: noteLength < RETURN_NOTE_LIMITS.min || noteLength > RETURN_NOTE_LIMITS.max, 'data-testid': 'return-record-confirm' } as ButtonProps
        }
      >
        <p>
          {recording?.outcome === 'delivered'
            ? '护照已送到客户手中：订单将办理完成，并通知客户。'
            : '快件已退回易签通：订单回到“已递交使馆”，可与客户核对地址后重新寄回护照。'}
        </p>
        <label htmlFor="return-record-note">说明（{`${RETURN_NOTE_LIMITS.min}–${RETURN_NOTE_LIMITS.max}`} 字）</label>
        <Input.TextArea
          id="return-record-note"
          rows={3}
          maxLength={RETURN_NOTE_LIMITS.max}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          placeholder="如：已电话联系客户，确认护照已收到"
          data-testid="return-record-note"
        />
      </Modal>
    </div>
  );
}
