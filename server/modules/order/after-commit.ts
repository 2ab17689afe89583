// After-commit hooks of the order lifecycle (decision 0034). A module that
// must act once an order event is committed — the notification module sends
// the notices' e-mails, the refund module gives new refunds to the provider —
// registers a hook here; lifecycle.apply() announces every event it writes,
// and the hooks of that event run right after the transaction commits,
// whoever opened it (lifecycle.change(), payment settlement, the refund
// module's own transactions, a result_reject change with a refund inside).
// A rolled-back transaction runs none. The lifecycle imports no module to call
// it: modules register with the lifecycle, not the other way round.
//
// Hooks belong to one database handle (an app's), so several apps in one
// process (tests) each hear their own commits. A hook runs once per committed
// event, synchronously after the COMMIT: it must be quick and must not query —
// typically a job runner's poke (server/platform/jobs.ts), which coalesces.
// Durability is not the hook's business: the work itself is in the database
// (an outbox row, a refund row) and the job's sweep finds it if this process
// dies between the commit and the hook.
import type { Kysely } from 'kysely';
import type { OrderEventName } from '../../../common/order.ts';
import { afterCommit, databaseKey } from '../../db/after-commit.ts';
import type { Database } from '../../db/schema.ts';

/** An order event whose transaction committed. */
export interface CommittedEvent {
  event: OrderEventName;
  user_order_id: number;
  event_id: number;
  at: number;
}

export interface AfterCommitHook {
  /** Names the hook in a log line when it throws. */
  name: string;
  /** The events it follows: a list, or a test on the event's name. */
  events: readonly OrderEventName[] | ((event: OrderEventName) => boolean);
  /** Runs once per committed event it follows: quick, no queries (a poke). */
  run(event: CommittedEvent): void;
  log?: { warn(object: object, message: string): void };
}

const registries = new WeakMap<object, Set<AfterCommitHook>>();

const follows = (hook: AfterCommitHook, event: OrderEventName) => (typeof hook.events === 'function' ? hook.events(event) : hook.events.includes(event));

/** Registers a hook on the database's commits; returns the function that removes it. */
export function onOrderEventCommitted(db: Kysely<Database>, hook: AfterCommitHook): () => void {
  const key = databaseKey(db);
  let hooks = registries.get(key);
  if (!hooks) {
    hooks = new Set();
    registries.set(key, hooks);
  }
  hooks.add(hook);
  return () => hooks.delete(hook);
}

function runHooks(hooks: Set<AfterCommitHook>, event: CommittedEvent): void {
  for (const hook of hooks) {
    if (!follows(hook, event.event)) continue;
    try {
      hook.run(event);
    } catch (error) {
      const warn = hook.log?.warn.bind(hook.log) ?? ((object: object, message: string) => console.error(message, object));
      warn({ err: error, hook: hook.name, event: event.event, userOrderId: event.user_order_id }, 'after-commit hook failed');
    }
  }
}

/**
 * Called by lifecycle.apply() for each event it writes, inside the caller's
 * transaction: the hooks following the event run once that transaction has
 * committed (never if it rolls back).
 */
export async function announceAfterCommit(trx: Kysely<Database>, event: CommittedEvent): Promise<void> {
  const hooks = registries.get(databaseKey(trx));
  // Nobody follows this event on this database: nothing to wait for.
  if (!hooks || ![...hooks].some((hook) => follows(hook, event.event))) return;
  await afterCommit(trx, () => runHooks(hooks, event));
}
