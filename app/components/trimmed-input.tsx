import { Input, type InputProps, type InputRef } from 'antd';
import { useState, type ChangeEvent, type ComponentProps, type FocusEvent, type Ref } from 'react';
import { normalizeInputText } from '../../common/text';

interface TrimmedValueProps {
  /** Injected by Form.Item: the normalized value held by the form. */
  value?: string;
  /** Injected by Form.Item: receives the normalized text on every change and blur. */
  onChange?: (value: string) => void;
  ref?: Ref<InputRef>;
}

export type TrimmedInputProps = Omit<InputProps, 'value' | 'onChange'> & TrimmedValueProps;
export type TrimmedPasswordProps = Omit<ComponentProps<typeof Input.Password>, 'value' | 'onChange'> & TrimmedValueProps;

function useTrimmedValue(
  value: string | undefined,
  onChange: ((value: string) => void) | undefined,
  onBlur: ((event: FocusEvent<HTMLInputElement>) => void) | undefined,
) {
  const formValue = value ?? '';
  const [draft, setDraft] = useState(formValue);
  // The user's own text is shown while it still normalizes to the form's value;
  // otherwise the form changed it from outside (reset, setFieldsValue).
  const shown = normalizeInputText(draft) === formValue ? draft : formValue;

  return {
    value: shown,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      setDraft(event.target.value);
      onChange?.(normalizeInputText(event.target.value));
    },
    onBlur: (event: FocusEvent<HTMLInputElement>) => {
      const normalized = normalizeInputText(event.target.value);
      setDraft(normalized);
      // Report before Form.Item's onBlur trigger validates the stored value.
      onChange?.(normalized);
      onBlur?.(event);
    },
  };
}

/**
 * The trimmed text input of spec §5, for use inside Form.Item: shows what the user
 * types, reports the normalized text to the form on every change and every blur.
 */
export function TrimmedInput({ value, onChange, onBlur, ref, ...rest }: TrimmedInputProps) {
  return <Input {...rest} ref={ref} {...useTrimmedValue(value, onChange, onBlur)} />;
}

/** TrimmedInput's password variant. */
export function TrimmedPassword({ value, onChange, onBlur, ref, ...rest }: TrimmedPasswordProps) {
  return <Input.Password {...rest} ref={ref} {...useTrimmedValue(value, onChange, onBlur)} />;
}
