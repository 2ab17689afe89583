import { Select } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { SELECT_ALL_LABEL } from '../../common/constants';

/** The Select value standing for the '全部' option; callers see it as `null`. */
export const ALL_VALUE = '__all__';

export interface SelectWithAllOption<T extends string | number> {
  label: ReactNode;
  value: T;
}

export interface SelectWithAllProps<T extends string | number> {
  options: SelectWithAllOption<T>[];
  /** `null` selects '全部'; `undefined` shows the placeholder. */
  value?: T | null;
  onChange?: (value: T | null) => void;
  placeholder?: ReactNode;
  style?: CSSProperties;
}

/** A Select whose first option is '全部' (spec §2.6), reported as `null`. */
export function SelectWithAll<T extends string | number>({ options, value, onChange, placeholder, style }: SelectWithAllProps<T>) {
  return (
    <Select<T | typeof ALL_VALUE>
      value={value === null ? ALL_VALUE : value}
      onChange={(next) => onChange?.(next === ALL_VALUE ? null : next)}
      options={[{ label: SELECT_ALL_LABEL, value: ALL_VALUE }, ...options]}
      placeholder={placeholder}
      style={style}
    />
  );
}
