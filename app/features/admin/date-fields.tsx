// The back office's date and time fields: antd's pickers in zh-CN (the
// AntdScope's locale), replacing native inputs that showed the browser's
// format (11/30/2026, 09:30 AM). They read and write the same text the API
// takes — YYYY-MM-DD and HH:mm — so the calls are unchanged; '' is "none".
// Typing a value and pressing Enter (or leaving the field) also picks it.
import { DatePicker, TimePicker } from 'antd';
import dayjs from 'dayjs';
import type { CSSProperties } from 'react';

const DATE = 'YYYY-MM-DD';
const TIME = 'HH:mm';

interface FieldProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
  style?: CSSProperties;
  'data-testid'?: string;
}

/** A date as YYYY-MM-DD; `min`/`max` (YYYY-MM-DD) bound the days offered. */
export function DateField({ id, value, onChange, disabled, style, min, max, ...rest }: FieldProps & { min?: string; max?: string }) {
  return (
    <DatePicker
      id={id}
      value={value && dayjs(value).isValid() ? dayjs(value) : null}
      format={DATE}
      placeholder="选择日期"
      disabled={disabled}
      style={style}
      disabledDate={(day) => {
        const text = day.format(DATE);
        return (min !== undefined && text < min) || (max !== undefined && text > max);
      }}
      onChange={(day) => onChange?.(day ? day.format(DATE) : '')}
      data-testid={rest['data-testid']}
    />
  );
}

/** HH:mm as a dayjs of today (dayjs itself parses no bare time without a plugin). */
function timeOf(value: string | undefined) {
  const match = value ? /^(\d{1,2}):(\d{2})$/.exec(value) : null;
  return match ? dayjs().hour(Number(match[1])).minute(Number(match[2])).second(0).millisecond(0) : null;
}

/** A time of day as HH:mm (24-hour). */
export function TimeField({ id, value, onChange, disabled, style, ...rest }: FieldProps) {
  return (
    <TimePicker
      id={id}
      value={timeOf(value)}
      format={TIME}
      placeholder="选择时间"
      needConfirm={false}
      disabled={disabled}
      style={style}
      onChange={(time) => onChange?.(time ? time.format(TIME) : '')}
      data-testid={rest['data-testid']}
    />
  );
}
