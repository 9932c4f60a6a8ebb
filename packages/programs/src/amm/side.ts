/**
 * OutcomeSide parameters accept the canonical YES/NO or the market's own tickers (UP/DOWN, FLIP/NOFLIP…),
 * case-insensitively; the result is always canonical. Canonical names win over a ticker that
 * spells the other side (a market whose YES ticker is "NO" still reads "NO" as NO).
 */
import type { OutcomeSide } from './types.js';

export function parseOutcomeSide(input: string, tickers: { yesTicker: string; noTicker: string }): OutcomeSide | null {
  const s = input.trim().toUpperCase();
  if (s === 'YES' || s === 'NO') return s;
  if (s !== '' && s === tickers.yesTicker.trim().toUpperCase()) return 'YES';
  if (s !== '' && s === tickers.noTicker.trim().toUpperCase()) return 'NO';
  return null;
}
