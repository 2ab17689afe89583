// One toast channel for code outside React (the API client, the session).
// antd's message API (themed, localised, from the root's context) is loaded
// with the first toast: a page that never shows one does not carry it. Toasts
// asked for before it is there wait in a queue and show once it is
// (app/components/toasts.tsx hands the API over).
import { useSyncExternalStore } from 'react';
import type { MessageInstance } from 'antd/es/message/interface';

type Kind = 'error' | 'warning' | 'success';

let api: MessageInstance | null = null;
const waiting: Array<{ kind: Kind; content: string; duration?: number }> = [];
let wanted = false;
const listeners = new Set<() => void>();

export function setToastApi(instance: MessageInstance): void {
  api = instance;
  for (const { kind, content, duration } of waiting.splice(0)) void instance[kind](content, duration);
}

/** True once a toast has been asked for: the root then loads the message API. */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
    () => false,
  );
}

function show(kind: Kind, content: string, duration?: number): void {
  if (api) {
    void api[kind](content, duration);
    return;
  }
  waiting.push({ kind, content, duration });
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
}

/** What a form says when its own checks fail on submit (login, create order). */
export const CHECK_FIELDS_MESSAGE = '请检查标红字段';

/** duration in seconds, as antd counts it. */
export const toast = {
  error: (content: string, duration?: number) => show('error', content, duration),
  warning: (content: string, duration?: number) => show('warning', content, duration),
  success: (content: string, duration?: number) => show('success', content, duration),
};
