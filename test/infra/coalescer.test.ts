/** src/infra/coalescer.ts: bursts of keys handed on together, each key once per group. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Coalescer } from '../../src/infra/coalescer.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Coalescer', () => {
  it('hands on a burst once its window ends, each key once', () => {
    const groups: string[][] = [];
    const c = new Coalescer((keys) => groups.push(keys), 10);
    c.add('a');
    c.add('b');
    c.add('a');
    vi.advanceTimersByTime(9);
    expect(groups).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(groups).toEqual([['a', 'b']]);
    c.add('a'); // a new burst, a new window
    vi.advanceTimersByTime(10);
    expect(groups).toEqual([['a', 'b'], ['a']]);
  });

  it('hands on a full group at once, and what waits on drain', () => {
    const groups: string[][] = [];
    const c = new Coalescer((keys) => groups.push(keys), 10, 3);
    ['a', 'b', 'c', 'd'].forEach((k) => c.add(k));
    expect(groups).toEqual([['a', 'b', 'c']]);
    c.drain();
    expect(groups).toEqual([['a', 'b', 'c'], ['d']]);
    c.drain(); // nothing waits: nothing handed on, and no timer left behind
    vi.advanceTimersByTime(100);
    expect(groups).toHaveLength(2);
  });
});
