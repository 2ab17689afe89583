// npm run bench:replay-turn — CPU per event-loop turn of the embedded replay
// stores (decision 0016, log store): the SQLite file (one commit per turn)
// against the append-only log (one write + one fstat per turn), for turns of
// 1, 2 and 5 ids, alternated and repeated in the same run, with the batching
// alone (a Set, no file) as the floor both share. Prints medians.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newRequestId } from '../common/signing.ts';
import { rememberPerTurn, createLogReplayStore, createSqliteReplayStore, type ReplayStore } from '../server/platform/replay-store.ts';
import { median } from './support.ts';

const TURNS = Number(process.env.BENCH_TURNS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

/** CPU µs of this process per turn of `ids` ids (each turn awaited before the next). */
async function perTurn(store: ReplayStore, ids: number): Promise<number> {
  const prepared = Array.from({ length: TURNS }, () => Array.from({ length: ids }, () => newRequestId()));
  const started = process.cpuUsage();
  for (const turn of prepared) await Promise.all(turn.map((id) => store.remember(id, '4', Date.now())));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / TURNS;
}

const dir = mkdtempSync(join(tmpdir(), 'visa-bench-turn-'));
/** The stores' own batching (rememberPerTurn) deciding with a Set only: the part both stores share. */
function batchingOnly(): ReplayStore {
  const seen = new Set<string>();
  return {
    remember: rememberPerTurn((batch) => {
      for (const item of batch) item.resolve(seen.size !== seen.add(item.input.requestId).size);
    }),
    purgeBefore: async () => {},
    close: async () => {},
  };
}

const stores: Array<[string, ReplayStore]> = [
  ['batching + Set', batchingOnly()],
  ['SQLite file', createSqliteReplayStore(join(dir, 'bench.replay.db'))],
  ['append-only log', createLogReplayStore(join(dir, 'bench.replay'))],
];
for (const [, store] of stores) await perTurn(store, 2); // warm-up
for (const ids of [1, 2, 5]) {
  const figures = new Map<string, number[]>(stores.map(([label]) => [label, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? stores : [...stores].reverse();
    for (const [label, store] of order) figures.get(label)!.push(await perTurn(store, ids));
  }
  for (const [label, values] of figures)
    console.log(
      `${String(ids)} id(s)/turn  ${label.padEnd(16)} median ${median(values).toFixed(1).padStart(6)} µs/turn   [${values.map((v) => v.toFixed(1)).join(' ')}]`,
    );
}
for (const [, store] of stores) await store.close();
