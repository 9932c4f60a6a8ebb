/**
 * The one polling loop: ask `probe` until it answers (not undefined) or `timeoutMs` passes,
 * starting fast (a local delivery takes milliseconds) and backing off to `maxMs` between asks.
 * Resolves undefined on timeout; the caller decides what a timeout means.
 */
export interface PollOptions {
  timeoutMs: number;
  initialMs?: number;
  maxMs?: number;
  /** Ends the wait at once (undefined, as a timeout) when aborted: a daemon stopping does not sit out a long wait. */
  signal?: AbortSignal;
}

export async function pollUntil<T>(
  probe: () => Promise<T | undefined>,
  { timeoutMs, initialMs = 3, maxMs = 50, signal }: PollOptions,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  let waitMs = initialMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline || signal?.aborted) return undefined;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(waitMs, Math.max(0, deadline - Date.now())));
      signal?.addEventListener('abort', done, { once: true });
    });
    waitMs = Math.min(maxMs, Math.ceil(waitMs * 1.5));
  }
}
