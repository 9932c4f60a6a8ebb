/**
 * How a builder tells the sender that an intent cannot be built now. Anything else a builder
 * throws is an ordinary failed attempt (retried, counted against the attempt budget, its message
 * kept on the row).
 */

/**
 * A platform wallet cannot cover the transfer yet (a payout beyond the reserve, a refund from a
 * drained wallet). Temporary by nature: the operator funds the wallet and it goes through. The
 * sender records the shortfall, does NOT count the check as an attempt (an underfunded payout
 * must never exhaust its budget and end `failed`), and looks again with a growing backoff.
 */
export class AwaitingFundsError extends Error {
  constructor(
    message: string,
    readonly shortfall: { asset: string; missingRaw: bigint; wallets: string[] },
  ) {
    super(message);
    this.name = 'AwaitingFundsError';
  }
}

/**
 * The intent can never succeed as recorded (e.g. a refund whose destination account was closed):
 * the row fails at once with this reason instead of burning retries; an operator takes over.
 */
export class TerminalOutboundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TerminalOutboundError';
  }
}

/** Backoff between funding checks: 5 s, 10 s, 20 s … capped at 5 minutes. */
export function fundingBackoffMs(checks: number): number {
  return Math.min(300_000, 5_000 * 2 ** Math.max(0, Math.min(checks - 1, 16)));
}
