// One drain at a time for a background worker (the notice outbox, the refund
// worker): a call during a drain gets that drain's promise and makes it run
// one more round after the current one, so work poked in meanwhile is not
// left for the next sweep. The rounds' counts are added up.

type Counts<R> = { [K in keyof R]: number };

export interface SingleFlightDrain<R> {
  /** Runs rounds until no call came in during the last one; the counts of every round added up. */
  drain(): Promise<R>;
  /** Resolves when no drain is running (a failed one included): for a worker's stop(). */
  idle(): Promise<void>;
}

export function singleFlightDrain<R extends Counts<R>>(round: () => Promise<R>): SingleFlightDrain<R> {
  let running: Promise<R> | null = null;
  let again = false;
  function drain(): Promise<R> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total: R | null = null;
      try {
        do {
          again = false;
          const counts = await round();
          total = total ? sum(total, counts) : counts;
        } while (again);
        return total;
      } finally {
        running = null;
      }
    })();
    return running;
  }
  return {
    drain,
    idle: async () => {
      await running?.catch(() => undefined);
    },
  };
}

function sum<R extends Counts<R>>(a: R, b: R): R {
  const out = { ...a };
  for (const key of Object.keys(b) as Array<keyof R>) out[key] = (a[key] + b[key]) as R[keyof R];
  return out;
}
