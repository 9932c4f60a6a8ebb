/**
 * The solvency rules of the console's Money page (docs/operations.md, "Solvency checks"): what
 * each vault owes, worked out from the programs' payout rules (packages/programs/docs/programs.md),
 * and whether the vault holds it. Pure: the service reads the accounts, these decide.
 *
 * Family B (market program), per mode and status:
 * - AMM, active: every winning token redeems 1 raw USDC and either side may win, so holders are
 *   owed max(yes_supply, no_supply).
 * - AMM, resolved: the winning supply (the creator's surplus left at resolution).
 * - Pool (any status) and any cancelled market: the holders share `collateral` pro rata, so they
 *   are owed all of it — comparing token supplies would be wrong (a pool token costs 0.5 USDC).
 * Unclaimed creator and protocol fees sit in the vault on top of that. The program's own books
 * (invariant 1: vault ≥ collateral + unclaimed fees) are checked too: an AMM's collateral also
 * carries the creator's surplus, which resolve pays out of the same vault.
 *
 * Family C (exchange program): a YES + NO pair is backed by 1 raw USDC, so before resolution the
 * vault owes max(yes_supply, no_supply) (the two are equal while the program is sound); after,
 * the winning supply (each winning token redeems 1 : 1, losing ones for nothing).
 */
import type { MarketState } from '@pmx/programs';

export interface VaultCheck {
  /** What the vault must hold. */
  required: bigint;
  /** required − vault when positive, else 0. */
  shortfall: bigint;
  ok: boolean;
}

export interface FamilyBLiabilities extends VaultCheck {
  /** What the outcome-token holders can claim, whichever side wins. */
  owedToHolders: bigint;
  /** Creator and protocol fees accrued and not yet claimed. */
  unclaimedFees: bigint;
  /** The program's books: collateral + unclaimed fees. */
  books: bigint;
}

export interface OrderbookSupply {
  resolved: boolean;
  /** The winning outcome once resolved. */
  outcome: 'yes' | 'no' | null;
  yesSupply: bigint;
  noSupply: bigint;
}

const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

export function vaultCheck(vault: bigint, required: bigint): VaultCheck {
  const shortfall = required > vault ? required - vault : 0n;
  return { required, shortfall, ok: shortfall === 0n };
}

/** What Family B holders can claim from the vault (see the header for the rule per mode). */
export function familyBOwedToHolders(m: MarketState): bigint {
  if (m.mode === 'pool' || m.status === 'cancelled') return m.collateral;
  if (m.status === 'resolved') return m.winningSide === 'NO' ? m.noSupply : m.yesSupply;
  return max(m.yesSupply, m.noSupply);
}

export function familyBSolvency(m: MarketState, vault: bigint): FamilyBLiabilities {
  const unclaimedFees = m.creatorFeesAccrued - m.creatorFeesClaimed + (m.protocolFeesAccrued - m.protocolFeesClaimed);
  const owedToHolders = familyBOwedToHolders(m);
  const books = m.collateral + unclaimedFees;
  return { owedToHolders, unclaimedFees, books, ...vaultCheck(vault, max(owedToHolders + unclaimedFees, books)) };
}

/** What an orderbook vault owes: max of the supplies before resolution, the winning supply after. */
export function orderbookLiabilities(s: OrderbookSupply): bigint {
  if (s.resolved) return s.outcome === 'no' ? s.noSupply : s.outcome === 'yes' ? s.yesSupply : max(s.yesSupply, s.noSupply);
  return max(s.yesSupply, s.noSupply);
}

export function orderbookSolvency(s: OrderbookSupply, vault: bigint): VaultCheck {
  return vaultCheck(vault, orderbookLiabilities(s));
}

/** A wallet that pays fees or rent is low below its threshold; one without a threshold never is. */
export function solBalanceOk(lamports: bigint, minLamports: bigint | null): boolean {
  return minLamports === null || lamports >= minLamports;
}
