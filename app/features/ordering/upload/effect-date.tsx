// The effect-date select: the date the visa should take effect, from the
// order date to the departure date; cleared = from the departure date. Saved
// as soon as it is chosen.
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import type { MaterialListResult } from '../../../../common/contracts/material';
import { ApiError, api } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { effectDateAllowed } from '../../../components/upload/upload-model';
import { eventAllowed } from '../../../../common/order';

export function EffectDate({ list, onSaved }: { list: MaterialListResult; onSaved: (effectDate: string | null) => void }) {
  const [saving, setSaving] = useState(false);
  const save = async (value: Dayjs | null) => {
    const effectDate = value ? value.format('YYYY-MM-DD') : null;
    setSaving(true);
    try {
      const result = await api('/www/order/effect_date_set', { user_order_id: list.user_order_id, effect_date: effectDate }, { toast: false });
      onSaved(result.effect_date);
      toast.success(result.effect_date ? `签证生效日期：${result.effect_date}` : '签证将从出发日期生效');
    } catch (error) {
      if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(error instanceof ApiError ? error.message : '保存失败，请重试');
    } finally {
      setSaving(false);
    }
  };
  return (
    <section className="up-section up-effect" data-testid="upload-effect-date">
      <label className="up-effect-label" htmlFor="up-effect-picker">
        签证生效日期
      </label>
      <DatePicker
        id="up-effect-picker"
        className="up-effect-picker"
        value={list.effect_date ? dayjs(list.effect_date) : null}
        placeholder={`出发日期 ${list.departure_date}`}
        disabledDate={(day) => !effectDateAllowed(day.format('YYYY-MM-DD'), list)}
        defaultPickerValue={dayjs(list.departure_date)}
        allowClear
        disabled={saving || !eventAllowed(list, 'effect_date')}
        inputReadOnly
        onChange={(value) => void save(value)}
      />
      <div className="up-muted up-effect-hint">
        可选 {list.order_date} 至 {list.departure_date}；不选择则从出发日期生效。
      </div>
    </section>
  );
}
