/**
 * pollUntil's stop signal: a long wait (a confirmation, 15 s by default) ends as soon as the
 * daemon stops, answering undefined as a timeout does; a signal already aborted asks once.
 */
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../src/infra/poll.js';

describe('pollUntil', () => {
  it('ends a long wait at once when its signal is aborted, mid-sleep', async () => {
    const stopping = new AbortController();
    let asks = 0;
    const started = Date.now();
    setTimeout(() => stopping.abort(), 50); // the daemon stops during a 20 s sleep between asks
    const found = await pollUntil(async () => ((asks += 1), undefined), { timeoutMs: 60_000, initialMs: 20_000, signal: stopping.signal });
    expect(found).toBeUndefined();
    expect(asks).toBe(2); // the first ask, and one more on waking (the answer may have come meanwhile)
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('asks once when already stopping, and still returns what the probe found', async () => {
    const stopped = AbortSignal.abort();
    let asks = 0;
    expect(await pollUntil(async () => ((asks += 1), undefined), { timeoutMs: 60_000, signal: stopped })).toBeUndefined();
    expect(asks).toBe(1);
    expect(await pollUntil(async () => 'landed', { timeoutMs: 60_000, signal: stopped })).toBe('landed');
  });
});
