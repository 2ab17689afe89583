// 产品管理 · 面试时段 (issue 26): a consulate's interview / biometrics slots,
// 30 days at a time — each day's times with their capacity and bookings, the
// days the consulate is closed and why; bulk generation over a date range;
// closures added and removed; a slot's capacity changed (never below its
// bookings) or the slot deleted (unbooked only); the latest changes and who
// made them. Every change reloads the calendar from the server (the loader),
// which is what the customer's interview-time picker reads too.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Input, InputNumber, Modal, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import type { SlotCalendar } from '../../../../common/contracts/interview-slot-admin';
import { SLOT_CAPACITY_MAX } from '../../../../common/contracts/interview-slot-admin';
import { formatDateTime } from '../../../../common/format';
import { addDays } from '../../../../common/order';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { adminApi } from '../admin-api';
import { DateField, TimeField } from '../date-fields';
import './catalogue.css';

type Day = SlotCalendar['days'][number];
type Slot = Day['slots'][number];

const WEEKDAY_OPTIONS = [
  { value: 1, label: '周一' },
  { value: 2, label: '周二' },
  { value: 3, label: '周三' },
  { value: 4, label: '周四' },
  { value: 5, label: '周五' },
  { value: 6, label: '周六' },
  { value: 0, label: '周日' },
];

/** The server's refusal, shown where the change was asked for (the toast would vanish). */
function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : '操作失败，请稍后重试';
}

export function SlotsPage({ calendar }: { calendar: SlotCalendar }) {
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const districtId = calendar.consular_district_id;
  const go = (next: { district?: number; from?: string }) => {
    const query = new URLSearchParams();
    const district = next.district ?? districtId;
    if (district) query.set('district', String(district));
    const from = next.from ?? calendar.from;
    if (from !== calendar.today) query.set('from', from);
    navigate(`/admin/catalogue/slots${query.size ? `?${query}` : ''}`);
  };
  const [editing, setEditing] = useState<{ day: Day; slot: Slot } | null>(null);

  if (districtId === null) {
    return (
      <div className="cat-list-page">
        <h1 className="cat-title">面试时段</h1>
        <Alert type="info" showIcon title="还没有领区：请先添加国家和领区。" />
      </div>
    );
  }

  return (
    <div className="cat-list-page slots-page" data-testid="catalogue-slots">
      <div className="cat-editor-head">
        <h1 className="cat-title">面试时段</h1>
        <Space wrap>
          <label htmlFor="slots-district">领区</label>
          <Select
            id="slots-district"
            data-testid="slots-district"
            value={districtId}
            style={{ width: 320 }}
            showSearch={{ optionFilterProp: 'label' }}
            options={calendar.districts.map((d) => ({ value: d.consular_district_id, label: `${d.country} · ${d.name}（${d.consulate_name}）` }))}
            onChange={(value: number) => go({ district: value, from: calendar.today })}
          />
        </Space>
      </div>
      <p className="cat-muted slots-note">
        客人在“选择面试时间”中看到的就是这里的时段；没有设置过时段的工作日，会在客人首次查看时按标准时段（09:00–12:00、14:00–16:00，每半小时）生成。周末、中国法定节假日、该国国庆日和闭馆日不开放预约。
      </p>

      <div className="slots-panels">
        <GenerateForm districtId={districtId} today={calendar.today} onDone={revalidate} />
        <ClosuresPanel districtId={districtId} today={calendar.today} closures={calendar.closures} onDone={revalidate} />
      </div>

      <section aria-labelledby="slots-days-title" className="slots-days">
        <div className="cat-editor-head">
          <h2 id="slots-days-title" className="slots-h2">
            {calendar.from} 至 {calendar.to}
          </h2>
          <Space>
            <Button onClick={() => go({ from: addDays(calendar.from, -30) })} disabled={calendar.from <= calendar.today}>
              前 30 天
            </Button>
            <Button onClick={() => go({ from: calendar.today })}>今天</Button>
            <Button onClick={() => go({ from: addDays(calendar.from, 30) })}>后 30 天</Button>
          </Space>
        </div>
        <Table
          rowKey="date"
          size="small"
          pagination={false}
          dataSource={calendar.days}
          rowClassName={(day) => (day.closed_for ? 'slots-closed-row' : '')}
          columns={[
            {
              title: '日期',
              width: 150,
              render: (_: unknown, day: Day) => (
                <span data-testid="slots-day" data-date={day.date}>
                  {day.date} {day.weekday}
                </span>
              ),
            },
            {
              title: '状态',
              width: 170,
              render: (_: unknown, day: Day) =>
                day.closed_for ? (
                  <Tag color={day.closure ? 'red' : 'default'}>{day.closure ? `闭馆：${day.closed_for}` : day.closed_for}</Tag>
                ) : (
                  <Tag color="green">办公</Tag>
                ),
            },
            {
              title: '时段（已约 / 容量）',
              render: (_: unknown, day: Day) =>
                day.slots.length === 0 ? (
                  <span className="cat-muted">{day.closed_for ? '' : '未设置（按标准时段）'}</span>
                ) : (
                  <div className="slots-chips">
                    {day.slots.map((slot) => (
                      <button
                        type="button"
                        key={slot.interview_slot_id}
                        className={`slots-chip${slot.booked >= slot.capacity ? ' slots-chip-full' : ''}`}
                        onClick={() => setEditing({ day, slot })}
                        aria-label={`${day.date} ${slot.start_time}–${slot.end_time}，已约 ${slot.booked}，容量 ${slot.capacity}，修改`}
                        data-testid="slots-chip"
                      >
                        {slot.start_time}–{slot.end_time}{' '}
                        <b>
                          {slot.booked}/{slot.capacity}
                        </b>
                      </button>
                    ))}
                  </div>
                ),
            },
          ]}
        />
      </section>

      <section aria-labelledby="slots-changes-title" className="slots-changes">
        <h2 id="slots-changes-title" className="slots-h2">
          最近改动
        </h2>
        {calendar.changes.length === 0 ? (
          <p className="cat-muted">暂无改动记录</p>
        ) : (
          <ul data-testid="slots-changes">
            {calendar.changes.map((change, i) => (
              <li key={i}>
                <span className="cat-muted slots-change-who">
                  {formatDateTime(change.changed_at)} · {change.operator_name}
                </span>
                {change.summary}
              </li>
            ))}
          </ul>
        )}
      </section>

      {editing ? (
        <SlotDialog
          key={editing.slot.interview_slot_id}
          day={editing.day}
          slot={editing.slot}
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            revalidate();
          }}
        />
      ) : null}
    </div>
  );
}

function GenerateForm({ districtId, today, onDone }: { districtId: number; today: string; onDone: () => void }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [weekdays, setWeekdays] = useState<number[]>([1, 2, 3, 4, 5]);
  const [times, setTimes] = useState([{ start: '09:00', end: '09:30' }]);
  const [capacity, setCapacity] = useState<number | null>(5);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function generate() {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const result = await adminApi(
        '/admin-api/catalogue/slot_generate',
        { consular_district_id: districtId, from, to, weekdays, times, capacity: capacity ?? -1 },
        { toast: false },
      );
      const skipped = result.skipped.length > 0 ? `；跳过 ${result.skipped.map((s) => `${s.date.slice(5)}（${s.reason}）`).join('、')}` : '';
      setDone(`已为 ${result.days} 天新建 ${result.created} 个时段${result.existing > 0 ? `，${result.existing} 个已存在未改动` : ''}${skipped}`);
      toast.success('时段已生成');
      onDone();
    } catch (e) {
      setError(messageOf(e));
    }
    setBusy(false);
  }

  return (
    <section className="slots-panel" aria-labelledby="slots-generate-title" data-testid="slots-generate">
      <h2 id="slots-generate-title" className="slots-h2">
        批量生成
      </h2>
      <div className="slots-form-row">
        <label htmlFor="slots-from">开始日期</label>
        <DateField id="slots-from" value={from} onChange={setFrom} min={today} data-testid="slots-from" />
        <label htmlFor="slots-to">结束日期</label>
        <DateField id="slots-to" value={to} onChange={setTo} min={from || today} data-testid="slots-to" />
      </div>
      <div className="slots-form-row">
        <span id="slots-weekdays-label">星期</span>
        <Checkbox.Group aria-labelledby="slots-weekdays-label" options={WEEKDAY_OPTIONS} value={weekdays} onChange={(v) => setWeekdays(v as number[])} />
      </div>
      <div className="slots-form-row slots-times">
        <span>时段</span>
        <div>
          {times.map((time, i) => (
            <Space key={i} className="slots-time-row" data-testid="slots-time-row">
              <TimeField id={`slots-start-${i}`} value={time.start} onChange={(start) => setTimes(times.map((t, j) => (j === i ? { ...t, start } : t)))} />
              <span>至</span>
              <TimeField id={`slots-end-${i}`} value={time.end} onChange={(end) => setTimes(times.map((t, j) => (j === i ? { ...t, end } : t)))} />
              <Button
                aria-label="删除此时段"
                icon={<DeleteOutlined />}
                disabled={times.length === 1}
                onClick={() => setTimes(times.filter((_, j) => j !== i))}
              />
            </Space>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => setTimes([...times, { start: times.at(-1)?.end ?? '09:00', end: '' }])}>
            添加时段
          </Button>
        </div>
      </div>
      <div className="slots-form-row">
        <label htmlFor="slots-capacity">每个时段可约人数</label>
        <InputNumber id="slots-capacity" min={0} max={SLOT_CAPACITY_MAX} precision={0} value={capacity} onChange={(v) => setCapacity(v)} />
        <Button type="primary" loading={busy} onClick={generate} data-testid="slots-generate-submit">
          生成时段
        </Button>
      </div>
      {error ? <Alert type="error" showIcon title={error} data-testid="slots-generate-error" /> : null}
      {done ? <Alert type="success" showIcon title={done} data-testid="slots-generate-done" /> : null}
    </section>
  );
}

function ClosuresPanel({ districtId, today, closures, onDone }: { districtId: number; today: string; closures: SlotCalendar['closures']; onDone: () => void }) {
  const [date, setDate] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function add() {
    setBusy(true);
    setError(null);
    try {
      await adminApi('/admin-api/catalogue/slot_closure_add', { consular_district_id: districtId, date, reason }, { toast: false });
      toast.success(`${date} 已设为闭馆日`);
      setDate('');
      setReason('');
      onDone();
    } catch (e) {
      setError(messageOf(e));
    }
    setBusy(false);
  }

  async function remove(day: string) {
    setError(null);
    try {
      await adminApi('/admin-api/catalogue/slot_closure_remove', { consular_district_id: districtId, date: day }, { toast: false });
      toast.success(`已取消 ${day} 的闭馆日`);
      onDone();
    } catch (e) {
      setError(messageOf(e));
    }
  }

  return (
    <section className="slots-panel" aria-labelledby="slots-closures-title" data-testid="slots-closures">
      <h2 id="slots-closures-title" className="slots-h2">
        闭馆日
      </h2>
      <div className="slots-form-row">
        <label htmlFor="slots-closure-date">日期</label>
        <DateField id="slots-closure-date" value={date} onChange={setDate} min={today} data-testid="slots-closure-date" />
        <label htmlFor="slots-closure-reason">原因</label>
        <Input
          id="slots-closure-reason"
          value={reason}
          maxLength={50}
          onChange={(e) => setReason(e.target.value)}
          style={{ width: 180 }}
          placeholder="如：领馆内部活动"
        />
        <Button onClick={add} loading={busy} data-testid="slots-closure-add">
          设为闭馆日
        </Button>
      </div>
      {error ? <Alert type="error" showIcon title={error} data-testid="slots-closure-error" /> : null}
      {closures.length === 0 ? (
        <p className="cat-muted">没有今天以后的闭馆日</p>
      ) : (
        <ul className="slots-closure-list">
          {closures.map((closure) => (
            <li key={closure.date} data-testid="slots-closure">
              <span>
                {closure.date} {closure.reason}
                <span className="cat-muted">{closure.created_by}</span>
              </span>
              <Button size="small" onClick={() => remove(closure.date)} aria-label={`取消 ${closure.date} 的闭馆日`}>
                取消闭馆
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SlotDialog({ day, slot, onClose, onDone }: { day: Day; slot: Slot; onClose: () => void; onDone: () => void }) {
  const [capacity, setCapacity] = useState<number | null>(slot.capacity);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(work: () => Promise<unknown>, done: string) {
    setBusy(true);
    setError(null);
    try {
      await work();
      toast.success(done);
      onDone();
    } catch (e) {
      setError(messageOf(e));
      setBusy(false);
    }
  }

  const title = `${day.date} ${day.weekday} ${slot.start_time}–${slot.end_time}`;
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      footer={[
        <Button
          key="delete"
          danger
          disabled={busy}
          onClick={() => run(() => adminApi('/admin-api/catalogue/slot_delete', { interview_slot_id: slot.interview_slot_id }, { toast: false }), '时段已删除')}
        >
          删除时段
        </Button>,
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={busy}
          onClick={() =>
            run(
              () => adminApi('/admin-api/catalogue/slot_capacity', { interview_slot_id: slot.interview_slot_id, capacity: capacity ?? -1 }, { toast: false }),
              '容量已修改',
            )
          }
        >
          保存容量
        </Button>,
      ]}
    >
      <p>
        已预约 <b data-testid="slot-booked">{slot.booked}</b> 人；容量只能减到已预约人数，已有预约的时段不能删除。
      </p>
      <Space>
        <label htmlFor="slot-capacity">容量</label>
        <InputNumber id="slot-capacity" min={0} max={SLOT_CAPACITY_MAX} precision={0} value={capacity} onChange={(v) => setCapacity(v)} />
      </Space>
      {error ? <Alert className="slots-dialog-error" type="error" showIcon title={error} data-testid="slot-error" /> : null}
    </Modal>
  );
}
