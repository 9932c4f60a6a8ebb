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

  it('holds a window open until the last release, and a change after it is still handed on', () => {
    const groups: string[][] = [];
    const c = new Coalescer((keys) => groups.push(keys), 10, 4);
    const first = c.hold();
    const second = c.hold();
    c.add('taker');
    c.add('maker-1');
    vi.advanceTimersByTime(50); // the window ends while held: nothing goes
    c.add('taker'); // the next transaction of the group changes the taker again
    c.add('maker-2');
    expect(groups).toEqual([]);
    first();
    first(); // a release counts once
    expect(groups).toEqual([]);
    second(); // the last release hands on the group, each key once
    expect(groups).toEqual([['taker', 'maker-1', 'maker-2']]);
    // A balance change after the held window is not lost: it goes in a window of its own.
    c.add('taker');
    vi.advanceTimersByTime(10);
    expect(groups).toEqual([['taker', 'maker-1', 'maker-2'], ['taker']]);
  });

  it('hands on a full group even while held (a job carries at most `max` keys)', () => {
    const groups: string[][] = [];
    const c = new Coalescer((keys) => groups.push(keys), 10, 2);
    const release = c.hold();
    ['a', 'b', 'c'].forEach((k) => c.add(k));
    expect(groups).toEqual([['a', 'b']]);
    release();
    expect(groups).toEqual([['a', 'b'], ['c']]);
    release();
    vi.advanceTimersByTime(100);
    expect(groups).toHaveLength(2);
  });
});
