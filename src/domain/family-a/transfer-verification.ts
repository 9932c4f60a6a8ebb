/**
 * Does a landed transaction prove the transfer a quote asked for? Pure: it reads the
 * transaction's token-balance deltas (meta.pre/postTokenBalances), the only view of an SPL
 * transfer that is the same for Transfer, TransferChecked and any program's CPI.
 *
 * Accepted: the recipient's account for `mint` (the associated token account of `recipientOwner`)
 * gained at least `minAmount`, the tokens left accounts owned by `payer`, and `payer` signed.
 * Each refusal names its reason (the API puts it in PAYMENT_FAILED's message).
 */
export interface TokenDelta {
  account: string;
  mint: string;
  owner: string;
  pre: bigint;
  post: bigint;
}

export interface LamportDelta {
  account: string;
  pre: bigint;
  post: bigint;
}

export interface LandedTransaction {
  err: unknown | null;
  signers: string[];
  tokenBalances: TokenDelta[];
  lamportBalances: LamportDelta[];
}

export interface TransferExpectation {
  mint: string;
  recipientOwner: string;
  recipientAccount: string;
  payer: string;
  minAmount: bigint;
  /** Claims: the payer's accounts of `mint` touched by the transaction must end empty. */
  requireAll?: boolean;
  /**
   * Trades: the amount moved must equal `minAmount` exactly. A payment is honoured only at its own
   * quote; a larger payment presented with a smaller quote (someone else's, or a stale one) is
   * refused so that the quote matching what it moved can still claim it.
   */
  exact?: boolean;
}

export type TransferCheck = { ok: true; moved: bigint } | { ok: false; reason: string };

function fail(reason: string): TransferCheck {
  return { ok: false, reason };
}

export function verifyTransfer(tx: Omit<LandedTransaction, 'lamportBalances'>, want: TransferExpectation): TransferCheck {
  if (tx.err !== null && tx.err !== undefined) return fail('the transaction failed on chain');
  const credit = tx.tokenBalances.find((t) => t.account === want.recipientAccount && t.mint === want.mint);
  const received = credit ? credit.post - credit.pre : 0n;
  const debits = tx.tokenBalances.filter((t) => t.mint === want.mint && t.post < t.pre);
  const payerDebit = debits.filter((t) => t.owner === want.payer).reduce((sum, t) => sum + (t.pre - t.post), 0n);

  if (received <= 0n) {
    const otherMint = tx.tokenBalances.find((t) => t.owner === want.recipientOwner && t.mint !== want.mint && t.post > t.pre);
    if (otherMint) return fail(`wrong mint: the recipient received ${otherMint.mint}, expected ${want.mint}`);
    if (payerDebit > 0n) return fail(`wrong recipient: nothing was credited to ${want.recipientOwner}`);
    return fail(`no transfer of ${want.mint} to ${want.recipientOwner} in this transaction`);
  }
  if (payerDebit <= 0n || !tx.signers.includes(want.payer)) {
    return fail(`payer mismatch: the tokens did not come from an account owned and signed for by ${want.payer}`);
  }
  const moved = received < payerDebit ? received : payerDebit;
  if (moved < want.minAmount) return fail(`amount short: moved ${moved} raw units, expected at least ${want.minAmount}`);
  if (want.exact && moved !== want.minAmount) {
    return fail(
      `amount differs from the quote: moved ${moved} raw units, the quote is for exactly ${want.minAmount}; a payment is honoured only at a quote for the amount it moved, and this one was not consumed`,
    );
  }
  if (want.requireAll) {
    const left = tx.tokenBalances
      .filter((t) => t.mint === want.mint && t.owner === want.payer && t.account !== want.recipientAccount)
      .reduce((sum, t) => sum + t.post, 0n);
    if (left > 0n) return fail(`partial transfer: ${left} raw units of the winning token remain in the wallet; transfer ALL of them`);
  }
  return { ok: true, moved };
}

/**
 * Does a landed transaction prove a SOL payment? `recipient` gained at least `minLamports` and
 * `payer` signed and lost at least that much (its loss also carries the fee, so it is ≥ the gain).
 * Example: a 0.3 SOL creation fee is 300 000 000 lamports; a recipient delta of 299 999 999 fails.
 */
export function verifyLamportTransfer(
  tx: Pick<LandedTransaction, 'err' | 'signers' | 'lamportBalances'>,
  want: { recipient: string; payer: string; minLamports: bigint },
): TransferCheck {
  if (tx.err !== null && tx.err !== undefined) return fail('the transaction failed on chain');
  const delta = (account: string) => {
    const d = tx.lamportBalances.find((b) => b.account === account);
    return d ? d.post - d.pre : 0n;
  };
  const received = delta(want.recipient);
  if (received <= 0n) return fail(`no SOL transfer to ${want.recipient} in this transaction`);
  if (!tx.signers.includes(want.payer) || -delta(want.payer) < received) {
    return fail(`payer mismatch: the SOL did not come from ${want.payer}`);
  }
  if (received < want.minLamports) return fail(`amount short: moved ${received} lamports, expected at least ${want.minLamports}`);
  return { ok: true, moved: received };
}
