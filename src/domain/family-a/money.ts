/**
 * Family A money rules. Inside: bigint raw units (USDC and outcome tokens both have 6 decimals).
 * Outside: human numbers. Every division floors, which is always against the caller here: the
 * caller receives tokens (buy), USDC (sell) or a payout (claim), never pays a computed amount.
 */
import { U64_MAX } from '@pmx/programs';
import { DomainError } from '../errors.js';

export const DECIMALS = 6;
export const ONE = 10n ** BigInt(DECIMALS);
export const MIN_BUY_RAW = 10_000n; // 0.01 USDC
export const MAX_BUY_RAW = 1_000_000n * ONE; // 1,000,000 USDC
/** The payout rule's divisor: payout = tokenBalance × marketLimit / 100,000,000. */
export const MARKET_LIMIT_SCALE = 100_000_000n;

/**
 * A human amount to raw units, exactly. More than 6 decimals is refused rather than rounded:
 * rounding would choose a side, and the caller should say what they mean.
 */
export function humanToRaw(value: number, field = 'amount'): bigint {
  if (!Number.isFinite(value) || value < 0) throw new DomainError('invalid', 'VALIDATION_ERROR', `${field} must be a non-negative number`);
  // toFixed(7) keeps one digit beyond the precision so that 0.0000001 is caught, not rounded away.
  const text = value.toFixed(DECIMALS + 1);
  const [whole = '0', frac = ''] = text.split('.');
  if (!frac.endsWith('0')) throw new DomainError('invalid', 'VALIDATION_ERROR', `${field} has more than ${DECIMALS} decimals`);
  return BigInt(whole) * ONE + BigInt(frac.slice(0, DECIMALS));
}

/** Raw units to a human number (exact for every amount below 2^53 raw units). */
export function rawToHuman(raw: bigint): number {
  const whole = raw / ONE;
  const frac = (raw % ONE).toString().padStart(DECIMALS, '0');
  return Number(`${whole}.${frac}`);
}

export function assertBuyAmount(raw: bigint): void {
  if (raw < MIN_BUY_RAW || raw > MAX_BUY_RAW) {
    throw new DomainError('invalid', 'VALIDATION_ERROR', 'amount must be between 0.01 and 1,000,000 USDC');
  }
}

/**
 * Outcome tokens (raw) bought by `usdcRaw` at `priceRaw` USDC-raw per whole token, floored.
 * Refused past u64: an SPL amount is a u64 and an encoder would silently keep its low 64 bits.
 * (Within the API's bounds — at most 10^12 raw USDC, a price of at least 1 raw — it is at most 10^18.)
 */
export function tokensForUsdc(usdcRaw: bigint, priceRaw: bigint): bigint {
  if (priceRaw <= 0n) throw new Error('target price must be positive');
  const tokens = (usdcRaw * ONE) / priceRaw;
  if (tokens > U64_MAX) throw new DomainError('invalid', 'VALIDATION_ERROR', 'amount buys more tokens than a token account can hold');
  return tokens;
}

/** USDC (raw) paid for selling `tokensRaw` back at `priceRaw`, floored. */
export function usdcForTokens(tokensRaw: bigint, priceRaw: bigint): bigint {
  return (tokensRaw * priceRaw) / ONE;
}

/** Claim payout (raw USDC) for `tokensRaw` winning tokens: tokens × marketLimit / 1e8, floored. */
export function claimPayout(tokensRaw: bigint, marketLimit: bigint): bigint {
  return (tokensRaw * marketLimit) / MARKET_LIMIT_SCALE;
}
