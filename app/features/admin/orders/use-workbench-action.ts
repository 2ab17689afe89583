// The workbench's one way to act (issue 24): every panel's button runs its
// /admin-api call through this hook, which toasts the outcome (the server's
// Chinese message on a refusal; a 401 goes to the login page instead) and
// then reads the workbench route's loader again — the order's new version
// and every panel's new state come from that one read, so no panel reads
// its own data or carries a version of its own making. A refusal because
// the order changed meanwhile is answered the same way: the page shows the
// order as it now is.
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { OrderEventName } from '../../../../common/order';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';

export interface WorkbenchAction<T> {
  /** The call; made with `{ toast: false }`: the hook shows its refusal. */
  call: () => Promise<T>;
  /** The success toast, or none. */
  done?: string | ((answer: T) => string | null);
  /** On success, before the page reads the order again (close a dialog, clear a form). */
  then?: (answer: T) => void;
}

export function useWorkbenchAction() {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);

  /** Runs one action under `key` (what `busy` names meanwhile); true when it went through. */
  async function run<T>(key: string, action: WorkbenchAction<T>): Promise<boolean> {
    setBusy(key);
    try {
      const answer = await action.call();
      const text = typeof action.done === 'function' ? action.done(answer) : action.done;
      if (text) toast.success(text);
      action.then?.(answer);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 401) return false;
      toast.error(error instanceof ApiError ? error.message : '操作失败，请重试');
      return false;
    } finally {
      // The workbench as it now is: the new version, every panel's new state (or the other operator's change).
      await revalidator.revalidate();
      setBusy(null);
    }
  }

  return { busy, run };
}

/** May the calling operator fire this event on the order now (the view's allowed_events, from the lifecycle's table)? */
export function allows(bench: Pick<AdminWorkbench, 'order'>, event: OrderEventName): boolean {
  return bench.order.allowed_events.includes(event);
}
