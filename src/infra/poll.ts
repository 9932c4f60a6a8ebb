/**
 * The one polling loop: ask `probe` until it answers (not undefined) or `timeoutMs` passes,
 * starting fast (a local delivery takes milliseconds) and backing off to `maxMs` between asks.
 * Resolves undefined on timeout; the caller decides what a timeout means.
 */
export interface PollOptions {
  timeoutMs: number;
  initialMs?: number;
  maxMs?: number;
}

export async function pollUntil<T>(probe: () => Promise<T | undefined>, { timeoutMs, initialMs = 3, maxMs = 50 }: PollOptions): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  let waitMs = initialMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, Math.min(waitMs, Math.max(0, deadline - Date.now()))));
    waitMs = Math.min(maxMs, Math.ceil(waitMs * 1.5));
  }
}
