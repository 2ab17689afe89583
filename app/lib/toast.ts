// One toast channel for code outside React (the API client, the session).
// The root component hands over antd's context-aware message API, so toasts
// use the theme and locale; before that, messages are dropped rather than
// rendered unthemed.
import type { MessageInstance } from 'antd/es/message/interface';

let api: MessageInstance | null = null;

export function setToastApi(instance: MessageInstance): void {
  api = instance;
}

/** What a form says when its own checks fail on submit (login, create order). */
export const CHECK_FIELDS_MESSAGE = '请检查标红字段';

/** duration in seconds, as antd counts it. */
export const toast = {
  error: (content: string, duration?: number) => api?.error(content, duration),
  warning: (content: string, duration?: number) => api?.warning(content, duration),
  success: (content: string, duration?: number) => api?.success(content, duration),
};
