/**
 * Reconnect delays: exponential from `initialMs`, capped at `maxMs`, with jitter so that the
 * clients of a restarted node do not all come back in the same millisecond. The delay is drawn
 * from [d/2, d] ("equal jitter"): never below half the step, so a broken node is not hammered.
 */
export interface BackoffOptions {
  /** First delay (default 250 ms). */
  initialMs?: number;
  /** Largest delay (default 30 s). */
  maxMs?: number;
  /** Growth per failed attempt (default 2). */
  factor?: number;
  /** A source of [0, 1) numbers (default Math.random), for tests. */
  random?: () => number;
}

export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const { initialMs = 250, maxMs = 30_000, factor = 2, random = Math.random } = options;
  const step = Math.min(maxMs, initialMs * factor ** Math.max(0, attempt));
  return Math.round(step / 2 + (random() * step) / 2);
}
