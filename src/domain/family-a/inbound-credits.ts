/**
 * Money that reached a platform wallet in a landed transaction, and what becomes of the part that
 * was not honoured (issue 8 item 2). Pure: it reads the transaction's balance deltas and the facts
 * the service looked up, and decides.
 *
 * A credit is one account of a platform wallet (a token account it owns, or the wallet itself for
 * SOL) that gained value in the transaction. Its sender is the one owner whose accounts of that
 * asset were debited (for SOL: the one signer who lost at least the amount); the refund goes back
 * to the very account the value left, never to a new account (creating one would cost the
 * treasury rent that the sender could reclaim by closing it). Several debited owners: no single
 * sender can be told, and an operator decides.
 */
import type { LamportDelta, TokenDelta } from './transfer-verification.js';

export const SOL = 'SOL';

export interface CreditSource {
  err: unknown | null;
  signers: string[];
  /** `accountIndex` is the account's index in the transaction (meta.postTokenBalances). */
  tokenBalances: Array<TokenDelta & { accountIndex: number }>;
  /** Every static account key's lamports, in message order (index = position). */
  lamportBalances: LamportDelta[];
}

export interface InboundCredit {
  /** The credited account's index in the transaction: with the signature, the credit's identity. */
  index: number;
  account: string;
  /** A mint, or SOL. */
  asset: string;
  /** The platform wallet that owns the account (for SOL: the account itself). */
  owner: string;
  amount: bigint;
  sender: { account: string; owner: string } | null;
}

function tokenSender(tx: CreditSource, mint: string): InboundCredit['sender'] {
  const debits = tx.tokenBalances.filter((t) => t.mint === mint && t.post < t.pre);
  const owners = new Set(debits.map((t) => t.owner));
  if (owners.size !== 1) return null;
  const largest = debits.reduce((a, b) => (b.pre - b.post > a.pre - a.post ? b : a));
  return { account: largest.account, owner: largest.owner };
}

function lamportSender(tx: CreditSource, amount: bigint): InboundCredit['sender'] {
  const candidates = tx.lamportBalances.filter((b) => tx.signers.includes(b.account) && b.pre - b.post >= amount);
  return candidates.length === 1 ? { account: candidates[0]!.account, owner: candidates[0]!.account } : null;
}

/**
 * Every credit of the transaction to an account of a wallet `isOurs` recognises. A failed
 * transaction moved nothing. Example: a transfer of 1 USDC from Alice's account to an option
 * wallet's USDC account is one credit {asset: USDC mint, amount: 1_000_000, sender: Alice's account}.
 */
export function inboundCredits(tx: CreditSource, isOurs: (wallet: string) => boolean): InboundCredit[] {
  if (tx.err !== null && tx.err !== undefined) return [];
  const credits: InboundCredit[] = [];
  for (const t of tx.tokenBalances) {
    if (t.post <= t.pre || !isOurs(t.owner)) continue;
    credits.push({
      index: t.accountIndex,
      account: t.account,
      asset: t.mint,
      owner: t.owner,
      amount: t.post - t.pre,
      sender: tokenSender(tx, t.mint),
    });
  }
  tx.lamportBalances.forEach((b, index) => {
    if (b.post <= b.pre || !isOurs(b.account)) return;
    credits.push({
      index,
      account: b.account,
      asset: SOL,
      owner: b.account,
      amount: b.post - b.pre,
      sender: lamportSender(tx, b.post - b.pre),
    });
  });
  return credits.sort((a, b) => a.index - b.index);
}

/** What could still honour a credit, as the service found it in the database. */
export type CreditPurpose =
  /** USDC (buy) or the side's own tokens (sell) to an option wallet: quotes of the sender that match it exactly. */
  | { kind: 'trade'; marketStatus: string; live: boolean; quoteExpiriesMs: number[] }
  /** USDC or SOL to the platform wallet: payment deadlines of the sender's pending creations it could pay. */
  | { kind: 'creation'; deadlinesMs: number[] }
  /** Outcome tokens to the platform wallet. */
  | { kind: 'claim'; resolved: boolean; winning: boolean; claimed: boolean }
  | { kind: 'none'; why: string };

export type Decision =
  { state: 'held'; reason: string; refundAfterMs: number } | { state: 'refunded' | 'credited' | 'manual'; reason: string };

/**
 * What becomes of a credit nobody honoured (yet). `consumed`: the transaction's signature already
 * paid for something, so no quote can ever honour another of its transfers.
 *   - winning tokens of a resolved market from a wallet that has not claimed: credited, counted by
 *     that wallet's claim (a partial claim transfer, or a claim transfer presented elsewhere);
 *   - still honourable (a quote of the sender for exactly this amount was open when it landed, on
 *     a live market; or a pending creation of the sender it pays in time): held until the latest
 *     such deadline plus `graceMs`, then refunded;
 *   - anything else: refunded to its sender at once; without a single sender, left to an operator.
 * Example: 0.999999 USDC to the YES wallet against a 1 USDC quote matches no quote: refunded.
 */
export function decideUnhonoured(credit: InboundCredit, purpose: CreditPurpose, graceMs: number, consumed: boolean): Decision {
  const refund = (reason: string): Decision =>
    credit.sender
      ? { state: 'refunded', reason }
      : { state: 'manual', reason: `${reason}; several owners sent this asset, so no single account to refund` };
  switch (purpose.kind) {
    case 'claim':
      if (!purpose.resolved) return refund('outcome tokens sent to the platform wallet before the market resolved (sell them instead)');
      if (!purpose.winning) return refund('losing outcome tokens are worth nothing to claim');
      if (purpose.claimed) return refund('this wallet already claimed this market');
      return credit.sender
        ? { state: 'credited', reason: "winning tokens without a complete claim: counted by this wallet's claim of the market" }
        : refund('winning tokens from several owners');
    case 'trade':
      if (!purpose.live) return refund(`the market is ${purpose.marketStatus}, so no trade can honour it`);
      if (!consumed && purpose.quoteExpiriesMs.length > 0) {
        return {
          state: 'held',
          reason: 'a quote of the sender for exactly this amount can still honour it',
          refundAfterMs: Math.max(...purpose.quoteExpiriesMs) + graceMs,
        };
      }
      return refund(
        consumed
          ? 'its transaction was honoured for another transfer'
          : 'no quote of the sender was for exactly this amount when it landed',
      );
    case 'creation':
      if (!consumed && purpose.deadlinesMs.length > 0) {
        return {
          state: 'held',
          reason: 'a pending market creation of the sender can still take it',
          refundAfterMs: Math.max(...purpose.deadlinesMs) + graceMs,
        };
      }
      return refund(
        consumed ? 'its transaction was honoured for another transfer' : 'no pending market creation of the sender takes this payment',
      );
    case 'none':
      return refund(purpose.why);
  }
}
