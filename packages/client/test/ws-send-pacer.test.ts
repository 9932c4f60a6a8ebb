/**
 * The pacer keeps a connection under the daemon's 20 frames per sliding second (above it the
 * daemon closes with 4029): at most `perSecond` frames in any second, in order, none lost.
 * Fake timers: the rule is about the clock, not about speed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SendPacer } from '../src/ws/send-pacer.js';
import { backoffDelay } from '../src/ws/backoff.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('SendPacer', () => {
  it('sends at most perSecond frames in any sliding second, in order, and forgets its queue on reset', () => {
    const sent: Array<{ text: string; at: number }> = [];
    const pacer = new SendPacer(10, (text) => sent.push({ text, at: Date.now() }));
    const start = Date.now();
    for (let i = 0; i < 25; i++) pacer.push(`f${i}`);
    expect(sent).toHaveLength(10);
    vi.advanceTimersByTime(400);
    pacer.push('f25');
    expect(sent).toHaveLength(10);
    vi.advanceTimersByTime(5_000);
    expect(sent.map((s) => s.text)).toEqual(Array.from({ length: 26 }, (_, i) => `f${i}`));
    for (const { at } of sent) expect(sent.filter((s) => s.at >= at && s.at < at + 1_000).length).toBeLessThanOrEqual(10);
    expect(sent.at(-1)!.at - start).toBeGreaterThanOrEqual(2_000);

    for (let i = 0; i < 15; i++) pacer.push(`g${i}`);
    expect(pacer.waiting).toBeGreaterThan(0);
    pacer.reset();
    expect(pacer.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('backoffDelay', () => {
  it('doubles from the first delay up to the bound, jittered within [step/2, step]', () => {
    const top = (attempt: number) => backoffDelay(attempt, { initialMs: 100, maxMs: 1_000, random: () => 1 });
    expect([0, 1, 2, 3, 4, 5, 20].map(top)).toEqual([100, 200, 400, 800, 1_000, 1_000, 1_000]);
    expect(backoffDelay(3, { initialMs: 100, maxMs: 1_000, random: () => 0 })).toBe(400);
    expect(backoffDelay(3, { initialMs: 100, maxMs: 1_000, random: () => 0.5 })).toBe(600);
  });
});
