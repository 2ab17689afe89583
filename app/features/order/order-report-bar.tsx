// The order list's reports and invoices bar (issue 29): the orders ticked on
// this page — 导出 Excel / 导出 CSV, 设为团组, 申请发票 — and the enterprise's
// exports by 出行团组 or by the date the orders were placed (China time).
import { Button, DatePicker, Input, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import type { OrderGroupListResult } from '../../../common/contracts/report';
import { ORDER_GROUP_NAME_MAX, orderExportHref } from '../../../common/report';
import { ApiError, api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { InvoiceRequestDialog } from './invoice-request-dialog';
import { downloadExport } from './export-download';

type Format = 'xlsx' | 'csv';

function ExportButtons({ disabled, onExport, testId }: { disabled: boolean; onExport: (format: Format) => Promise<unknown>; testId: string }) {
  const [busy, setBusy] = useState<Format | null>(null);
  const run = async (format: Format) => {
    setBusy(format);
    try {
      await onExport(format);
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <Button
        size="small"
        disabled={disabled}
        loading={busy === 'xlsx'}
        onClick={() => void run('xlsx')}
        data-testid={`${testId}-xlsx`}
        autoInsertSpace={false}
      >
        导出 Excel
      </Button>
      <Button size="small" disabled={disabled} loading={busy === 'csv'} onClick={() => void run('csv')} data-testid={`${testId}-csv`} autoInsertSpace={false}>
        导出 CSV
      </Button>
    </>
  );
}

export function OrderReportBar({
  groups,
  selected,
  onClear,
  onChanged,
}: {
  groups: OrderGroupListResult['groups'];
  selected: number[];
  onClear: () => void;
  onChanged: () => void;
}) {
  const [group, setGroup] = useState<string | undefined>(undefined);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [groupDialog, setGroupDialog] = useState(false);
  const [groupName, setGroupName] = useState('');
  const [savingGroup, setSavingGroup] = useState(false);
  const [invoiceOpen, setInvoiceOpen] = useState(false);
  const none = selected.length === 0;

  async function saveGroup(name: string | null) {
    setSavingGroup(true);
    try {
      await api('/www/order/order_group_set', { user_order_ids: selected, group_name: name }, { toast: false });
      toast.success(name === null ? '已移出团组' : `已设为团组“${name}”`);
      setGroupDialog(false);
      onChanged();
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : '操作失败，请重试');
    } finally {
      setSavingGroup(false);
    }
  }

  return (
    <section className="order-report-bar" aria-label="报表与发票" data-testid="order-report-bar">
      <div className="order-report-row">
        <span className="order-report-label">
          已选 <strong data-testid="order-selected-count">{selected.length}</strong> 个订单
        </span>
        <ExportButtons disabled={none} testId="export-selected" onExport={(format) => downloadExport(orderExportHref(format, { ids: selected }))} />
        <Button size="small" disabled={none} onClick={() => setGroupDialog(true)} data-testid="order-group-set" autoInsertSpace={false}>
          设为团组
        </Button>
        <Button size="small" type="primary" disabled={none} onClick={() => setInvoiceOpen(true)} data-testid="invoice-request-open" autoInsertSpace={false}>
          申请发票
        </Button>
        {none ? null : (
          <Button size="small" type="link" onClick={onClear} autoInsertSpace={false}>
            清除选择
          </Button>
        )}
      </div>
      <div className="order-report-row">
        <span className="order-report-label">出行团组</span>
        <Select
          size="small"
          className="order-report-group"
          aria-label="出行团组"
          placeholder={groups.length > 0 ? '选择团组' : '暂无团组'}
          disabled={groups.length === 0}
          value={group}
          onChange={setGroup}
          options={groups.map((g) => ({ value: g.group_name, label: `${g.group_name}（${g.order_count}单）` }))}
          data-testid="export-group-select"
        />
        <ExportButtons disabled={!group} testId="export-group" onExport={(format) => downloadExport(orderExportHref(format, { group }))} />
      </div>
      <div className="order-report-row">
        <span className="order-report-label">下单日期</span>
        <DatePicker.RangePicker
          size="small"
          className="order-report-range"
          value={range}
          onChange={(next) => setRange(next)}
          allowEmpty={[false, false]}
          data-testid="export-range"
        />
        <ExportButtons
          disabled={!range?.[0] || !range?.[1]}
          testId="export-range"
          onExport={(format) => downloadExport(orderExportHref(format, { from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD') }))}
        />
      </div>
      <Modal
        open={groupDialog}
        title="设为出行团组"
        okText="保存"
        cancelText="取消"
        confirmLoading={savingGroup}
        okButtonProps={{ disabled: groupName.trim() === '', autoInsertSpace: false }}
        cancelButtonProps={{ autoInsertSpace: false }}
        onOk={() => void saveGroup(groupName.trim())}
        onCancel={() => setGroupDialog(false)}
        destroyOnHidden
        footer={(_, { OkBtn, CancelBtn }) => (
          <>
            <Button onClick={() => void saveGroup(null)} disabled={savingGroup} autoInsertSpace={false}>
              移出团组
            </Button>
            <CancelBtn />
            <OkBtn />
          </>
        )}
      >
        <p className="order-muted">把所选的 {selected.length} 个订单放进同一个出行团组，之后可按团组导出。</p>
        <Input
          value={groupName}
          onChange={(event) => setGroupName(event.target.value)}
          maxLength={ORDER_GROUP_NAME_MAX}
          showCount
          placeholder="例如：2027 春季欧洲考察团"
          aria-label="团组名称"
          list="order-group-names"
          data-testid="order-group-name"
        />
        <datalist id="order-group-names">
          {groups.map((g) => (
            <option key={g.group_name} value={g.group_name} />
          ))}
        </datalist>
      </Modal>
      <InvoiceRequestDialog
        open={invoiceOpen}
        orderIds={selected}
        onClose={() => setInvoiceOpen(false)}
        onDone={() => {
          setInvoiceOpen(false);
          onClear();
        }}
      />
    </section>
  );
}
