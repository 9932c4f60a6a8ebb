// bench/support/cannon.ts `rotated`: every side runs once per round, each round starting one side
// later, and each side's results come back in round order.
import { describe, expect, it } from 'vitest';
import { medianRatio, rotated } from '../../bench/support/cannon.js';

describe('rotated', () => {
  it('runs each side once per round, starting one side later each round', async () => {
    const calls: string[] = [];
    const side = (name: string) => {
      let n = 0;
      return async () => {
        calls.push(name);
        return `${name}${n++}`;
      };
    };
    const [a, b, c] = await rotated(4, [side('a'), side('b'), side('c')]);
    expect(calls.join('')).toBe('abc' + 'bca' + 'cab' + 'abc');
    expect([a, b, c]).toEqual([
      ['a0', 'a1', 'a2', 'a3'],
      ['b0', 'b1', 'b2', 'b3'],
      ['c0', 'c1', 'c2', 'c3'],
    ]);
  });

  it('takes the median of the rounds’ ratios, not the ratio of the medians', () => {
    // Rounds 10/10, 20/40, 90/30: ratios 1, 0.5, 3 → median 1; the medians' ratio would be 20/30.
    const ours = [{ rps: 10 }, { rps: 20 }, { rps: 90 }];
    const base = [{ rps: 10 }, { rps: 40 }, { rps: 30 }];
    expect(medianRatio(ours, base)).toBe(1);
  });
});
