/**
 * What the positions job learns from a smart wallet's outcome-token balances: the splits, merges
 * and redemptions its owner signed and sent straight to the chain (the daemon builds them but
 * never sees them land). A smart wallet's outcome tokens move only through settled fills, split
 * (+q YES and +q NO), merge (−q of both) and, once resolved, redemption of the winning outcome.
 * So, compared when every fill of that owner in that market is settled and counted, what the
 * wallet holds beyond the positions' `netQuantity` is:
 * - before resolution: the same difference d on both outcomes, a split of d (d > 0) or a merge
 *   of −d (d < 0); a difference on one outcome alone (a token transfer from outside) is left
 *   unexplained, never guessed;
 * - after resolution: the losing outcome's difference is a split (or merge) made before it (no
 *   losing token moves after resolution), and what the winning outcome lacks beyond that was
 *   redeemed at 10000.
 * Example: positions count 3 YES / 0 NO (bought 3 YES); the wallet holds 23 YES / 20 NO: split
 * of 20. The market resolves YES; the wallet holds 0 YES / 20 NO: the NO difference is 0, and 23
 * YES are missing: redeemed 23 at 10000.
 */
import { applyMerge, applyRedemption, applySplit, type MarketPositions } from './positions.js';

export interface Holdings {
  yes: bigint;
  no: bigint;
}

export type WalletMove =
  | { kind: 'split'; quantity: bigint }
  | { kind: 'merge'; quantity: bigint }
  | { kind: 'redeem'; outcome: 'yes' | 'no'; quantity: bigint; won: boolean };

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The moves that explain `held` from `counted`; `winner` is null while the market is unresolved. */
export function walletMoves(counted: Holdings, held: Holdings, winner: 'yes' | 'no' | null): WalletMove[] {
  const diff = { yes: held.yes - counted.yes, no: held.no - counted.no };
  if (winner === null) {
    if (diff.yes > 0n && diff.no > 0n) return [{ kind: 'split', quantity: min(diff.yes, diff.no) }];
    if (diff.yes < 0n && diff.no < 0n) return [{ kind: 'merge', quantity: min(-diff.yes, -diff.no) }];
    return [];
  }
  const loser = winner === 'yes' ? 'no' : 'yes';
  const moves: WalletMove[] = [];
  let winnerCounted = counted[winner];
  if (diff[loser] > 0n) {
    moves.push({ kind: 'split', quantity: diff[loser] });
    winnerCounted += diff[loser];
  } else if (diff[loser] < 0n) {
    const merged = min(-diff[loser], winnerCounted); // a merge needs the winning tokens it burnt
    if (merged > 0n) moves.push({ kind: 'merge', quantity: merged });
    winnerCounted -= merged;
  }
  const redeemed = winnerCounted - held[winner];
  if (redeemed > 0n) moves.push({ kind: 'redeem', outcome: winner, quantity: redeemed, won: true });
  return moves;
}

export function applyWalletMove(pair: MarketPositions, move: WalletMove): MarketPositions {
  if (move.kind === 'split') return applySplit(pair, move.quantity);
  if (move.kind === 'merge') return applyMerge(pair, move.quantity);
  return { ...pair, [move.outcome]: applyRedemption(pair[move.outcome], move.quantity, move.won) };
}
