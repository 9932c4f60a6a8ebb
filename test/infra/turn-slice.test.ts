// turnSlice (src/infra/time-slice.ts): a chain of synchronous calls in one turn yields to waiting
// I/O every 5 ms; the first call of a turn never waits.
import { describe, expect, it } from 'vitest';
import { turnSlice } from '../../src/infra/time-slice.js';
import { sqliteDatabase } from '../helpers/databases.js';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('turnSlice', () => {
  it('lets a timer due meanwhile run within a slice of a long chain of awaited synchronous work', async () => {
    await new Promise((resolve) => setImmediate(resolve)); // a fresh turn
    expect(turnSlice()).toBeUndefined(); // the turn's first call
    let fired = 0;
    const timer = setTimeout(() => (fired = performance.now()), 0);
    const started = performance.now();
    // Without a yield the timer could not fire before the loop's one-second bound ends it.
    while (fired === 0 && performance.now() - started < 1_000) {
      const turn = turnSlice();
      if (turn) await turn;
      busy(1);
    }
    clearTimeout(timer);
    expect(fired).toBeGreaterThan(0);
  });

  it('is taken by every SQLite statement: a loop of awaited queries lets a timer in', async () => {
    const db = await sqliteDatabase();
    try {
      // A fresh turn: the setup's own statements may have used up the one they ran in, and a
      // yield at the first query would end the loop before it showed that a young turn never waits.
      await new Promise((resolve) => setImmediate(resolve));
      let fired = false;
      const timer = setTimeout(() => (fired = true), 0);
      let queries = 0;
      const started = performance.now();
      while (!fired && performance.now() - started < 2_000) {
        await db.db.selectFrom('markets').select('id').limit(1).execute();
        busy(0.5);
        queries++;
      }
      clearTimeout(timer);
      expect(fired).toBe(true);
      expect(queries).toBeGreaterThan(1);
    } finally {
      await db.close();
    }
  });
});
