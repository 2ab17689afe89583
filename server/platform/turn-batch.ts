// One way to batch the calls of an event-loop turn (the replay stores'
// remember, SQLite's group commit of order_create). Calls made in the same
// turn are queued and handed to `flush` together on the next setImmediate.
// A flush that returns a promise is "out" until it settles; with maxInFlight,
// calls that arrive while that many batches are out wait for one to come back
// and then leave together, so under load a batch carries several turns' calls
// (fewer writes on both sides of a network store, fewer COMMITs on SQLite);
// when idle, a call still leaves in its own turn. maxBatch bounds one batch:
// the rest leave as further batches, at once if the cap allows, else when one
// comes back. flush settles every call it is handed; if it throws or its
// promise rejects, the calls it left unsettled are rejected with that error
// (a call settled already keeps its answer: a promise settles once).

export interface Waiting<I, O> {
  input: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

export interface TurnBatchLimits {
  /** Batches out at once (default: no cap). */
  maxInFlight?: number;
  /** Calls in one batch (default: no bound). */
  maxBatch?: number;
}

export function turnBatcher<I, O>(
  flush: (batch: Waiting<I, O>[]) => void | Promise<void>,
  { maxInFlight = Infinity, maxBatch = Infinity }: TurnBatchLimits = {},
): (input: I) => Promise<O> {
  let queue: Waiting<I, O>[] = [];
  let scheduled = false;
  let inFlight = 0;
  const back = () => {
    inFlight -= 1;
    // Calls held by the cap leave now; calls of a turn already scheduled
    // leave with the rest of their turn.
    if (!scheduled) drain();
  };
  function drain(): void {
    scheduled = false;
    while (queue.length > 0 && inFlight < maxInFlight) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = batch === queue ? [] : queue.slice(maxBatch);
      const fail = (error: unknown) => {
        for (const waiting of batch) waiting.reject(error);
      };
      let out: void | Promise<void>;
      try {
        out = flush(batch);
      } catch (error) {
        fail(error);
        continue;
      }
      if (out) {
        inFlight += 1;
        out.then(back, (error: unknown) => {
          fail(error);
          back();
        });
      }
    }
  }
  return (input) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        setImmediate(drain);
      }
    });
}
