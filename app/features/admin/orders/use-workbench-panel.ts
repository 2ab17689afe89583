// The data of a workbench panel that reads its own call (price difference,
// refunds, visa results): read again whenever the workbench shows another
// version of the order; an action answers the panel's new state, is toasted,
// and tells the workbench; a refusal because the order changed meanwhile
// (the panel's "stale" code) reads the panel again.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';

export function useWorkbenchPanel<P>(read: () => Promise<P>, options: { userOrderId: number; version: number; staleRet?: number; onChanged: () => void }) {
  const { userOrderId, version, staleRet, onChanged } = options;
  const [panel, setPanel] = useState<P | null>(null);
  const [busy, setBusy] = useState(false);

  // The latest render's read (an inline function each time); read again for another order or version.
  const readRef = useRef(read);
  readRef.current = read;
  const load = useCallback(async () => {
    try {
      setPanel(await readRef.current());
    } catch {
      // The workbench shows the order; the panel stays empty.
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load, userOrderId, version]);

  /** Runs an action answering the panel; true when it went through. */
  async function run(call: () => Promise<P>, done: string): Promise<boolean> {
    setBusy(true);
    try {
      setPanel(await call());
      toast.success(done);
      onChanged();
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.ret === staleRet) void load();
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { panel, busy, load, run };
}
