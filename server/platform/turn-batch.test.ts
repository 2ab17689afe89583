// The one batcher of an event-loop turn's calls (turn-batch.ts): the replay
// stores' remember and SQLite's group commit of order_create both use it.
import { describe, expect, it } from 'vitest';
import { turnBatcher, type Waiting } from './turn-batch.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A flush that records each batch and answers it only when the test says so. */
function heldFlush() {
  const sent: string[][] = [];
  const answers: Array<() => void> = [];
  const flush = (batch: Waiting<string, string>[]) => {
    sent.push(batch.map((waiting) => waiting.input));
    return new Promise<void>((resolve) =>
      answers.push(() => {
        for (const waiting of batch) waiting.resolve(waiting.input.toUpperCase());
        resolve();
      }),
    );
  };
  return { sent, answers, flush };
}

describe('turnBatcher', () => {
  it('hands the calls of one turn to one flush, and each caller gets its own answer', async () => {
    const sent: string[][] = [];
    const call = turnBatcher<string, number>((batch) => {
      sent.push(batch.map((waiting) => waiting.input));
      batch.forEach((waiting) => waiting.resolve(waiting.input.length));
    });
    const answers = Promise.all([call('a'), call('bb'), call('ccc')]);
    await turn();
    expect(sent).toEqual([['a', 'bb', 'ccc']]);
    expect(await answers).toEqual([1, 2, 3]);
    const next = call('dddd');
    await turn();
    expect(sent).toEqual([['a', 'bb', 'ccc'], ['dddd']]);
    expect(await next).toBe(4);
  });

  it('with a cap on batches out: sends a turn at once while under it, then holds what comes and sends it together when a batch is back', async () => {
    const { sent, answers, flush } = heldFlush();
    const call = turnBatcher(flush, { maxInFlight: 2 });
    const results = [call('a')];
    await turn();
    results.push(call('b'));
    await turn();
    // Two batches out: c, d and e wait, whatever turns they come in.
    results.push(call('c'));
    await turn();
    results.push(call('d'), call('e'));
    await turn();
    expect(sent).toEqual([['a'], ['b']]);
    answers[0]!();
    await turn();
    expect(sent).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
    answers[1]!();
    answers[2]!();
    expect(await Promise.all(results)).toEqual(['A', 'B', 'C', 'D', 'E']);
    // Idle again: the next call leaves in its own turn.
    const last = call('f');
    await turn();
    expect(sent.at(-1)).toEqual(['f']);
    answers[3]!();
    expect(await last).toBe('F');
  });

  it('bounds a batch: without a cap the rest leave at once as further batches', async () => {
    const { sent, answers, flush } = heldFlush();
    const call = turnBatcher(flush, { maxBatch: 2 });
    const results = ['a', 'b', 'c', 'd', 'e'].map(call);
    await turn();
    expect(sent).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    for (const answer of answers) answer();
    expect(await Promise.all(results)).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('bounds a batch: with one out at a time (group commit) the rest leave one batch after another', async () => {
    const { sent, answers, flush } = heldFlush();
    const call = turnBatcher(flush, { maxInFlight: 1, maxBatch: 2 });
    const results = ['a', 'b', 'c', 'd', 'e'].map(call);
    await turn();
    expect(sent).toEqual([['a', 'b']]);
    // A call while the first batch is out joins the queue behind c, d and e.
    results.push(call('f'));
    answers[0]!();
    await turn();
    expect(sent).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    answers[1]!();
    await turn();
    expect(sent).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
    answers[2]!();
    expect(await Promise.all(results)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
  });

  it('does not split a turn when an earlier batch comes back in the middle of it', async () => {
    const { sent, answers, flush } = heldFlush();
    const call = turnBatcher(flush);
    const first = call('a');
    await turn();
    const results = [call('b')];
    answers[0]!(); // comes back while b's turn is still being filled
    await Promise.resolve();
    results.push(call('c'));
    await turn();
    expect(sent).toEqual([['a'], ['b', 'c']]);
    answers[1]!();
    expect(await Promise.all([first, ...results])).toEqual(['A', 'B', 'C']);
  });

  it('rejects the calls of a flush that throws, and goes on with the next turn', async () => {
    let fail = true;
    const call = turnBatcher<string, string>((batch) => {
      if (fail) throw new Error('store down');
      for (const waiting of batch) waiting.resolve('ok');
    });
    const failed = [call('a'), call('b')].map((answer) => answer.catch((error: Error) => error.message));
    await turn();
    expect(await Promise.all(failed)).toEqual(['store down', 'store down']);
    fail = false;
    expect(await call('c')).toBe('ok');
  });

  it("rejects what a failed flush left unsettled; a call it answered keeps its answer, and the cap's place is given back", async () => {
    const call = turnBatcher<string, string>(
      async (batch) => {
        batch[0]!.resolve('first');
        throw new Error('connection lost');
      },
      { maxInFlight: 1 },
    );
    const answers = [call('a'), call('b')].map((answer) => answer.catch((error: Error) => error.message));
    expect(await Promise.all(answers)).toEqual(['first', 'connection lost']);
    expect(await call('c')).toBe('first');
  });
});
