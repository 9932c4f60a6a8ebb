/**
 * Validation of POST /v2/markets/create beyond the JSON schema (spec "Limits"): resolutionTime
 * after 2001-01-01 and before 2096-01-01 (Unix seconds), AMM seed at least 1 USDC (0 = Pool),
 * trade fee 100–400 bps, tickers that tell the sides apart.
 */
import { MIN_AMM_SEED } from '@pmx/programs';

export const RESOLUTION_TIME_MIN = 978_307_200; // 2001-01-01T00:00:00Z
export const RESOLUTION_TIME_MAX = 3_976_214_400; // 2096-01-01T00:00:00Z

export interface CreateMarketInput {
  title: string;
  description: string;
  yesTicker: string;
  noTicker: string;
  resolutionTime: number;
  seedAmount: bigint;
  tradeFeeBps: number;
}

/** Returns the first problem, or null when the input is acceptable. */
export function createMarketProblem(input: CreateMarketInput): string | null {
  if (
    !Number.isInteger(input.resolutionTime) ||
    input.resolutionTime <= RESOLUTION_TIME_MIN ||
    input.resolutionTime >= RESOLUTION_TIME_MAX
  ) {
    return `resolutionTime must be Unix seconds after 2001-01-01 and before 2096-01-01 (${RESOLUTION_TIME_MIN} < t < ${RESOLUTION_TIME_MAX})`;
  }
  if (input.seedAmount !== 0n && input.seedAmount < MIN_AMM_SEED) {
    return `seedAmount must be 0 (Pool mode) or at least ${MIN_AMM_SEED} raw units (1 USDC) for AMM mode`;
  }
  if (!Number.isInteger(input.tradeFeeBps) || input.tradeFeeBps < 100 || input.tradeFeeBps > 400) {
    return 'tradeFeeBps must be an integer from 100 to 400';
  }
  if (input.title.trim() === '' || input.description.trim() === '') return 'title and description must not be blank';
  const yes = input.yesTicker.trim().toUpperCase();
  const no = input.noTicker.trim().toUpperCase();
  if (yes === '' || no === '') return 'yesTicker and noTicker must not be blank';
  if (yes === no) return 'yesTicker and noTicker must differ';
  if (yes === 'NO' || no === 'YES') return 'a ticker must not name the other side (yesTicker NO or noTicker YES)';
  return null;
}
