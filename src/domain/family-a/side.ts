/** Outcome sides: canonical YES/NO, tickers resolved case-insensitively (spec rule 1). */
import { parseOutcomeSide as matchSide, type OutcomeSide } from '@pmx/programs';
import { DomainError } from '../errors.js';

export type { OutcomeSide };

/** The one ticker rule of the service (@pmx/programs, amm/side.ts), with Family A's refusal. */
export function parseOutcomeSide(value: string, tickers: { yes: string; no: string } = { yes: 'YES', no: 'NO' }): OutcomeSide {
  const side = matchSide(value, { yesTicker: tickers.yes, noTicker: tickers.no });
  if (side) return side;
  throw new DomainError('invalid', 'VALIDATION_ERROR', `side must be YES or NO (or the market's tickers ${tickers.yes}/${tickers.no})`);
}

/** The capitalised outcome names of Family A responses ("Yes"/"No"). */
export function outcomeLabel(side: OutcomeSide): 'Yes' | 'No' {
  return side === 'YES' ? 'Yes' : 'No';
}

/**
 * A market's ticker pair as stored (spec rule 1, at most 10 characters each). Trimmed, non-empty,
 * distinct ignoring case, and neither names the OTHER side's canonical outcome (a YES ticker "NO"
 * would make `side: "NO"` ambiguous). Example: ["UP", "DOWN"] → { yes: "UP", no: "DOWN" }.
 */
export function assertTickers(yes: string, no: string): { yes: string; no: string } {
  const y = yes.trim();
  const n = no.trim();
  const bad = (why: string) =>
    new DomainError('invalid', 'VALIDATION_ERROR', `tickers ${JSON.stringify(yes)}/${JSON.stringify(no)}: ${why}`);
  if (!y || !n || y.length > 10 || n.length > 10) throw bad('each must be 1 to 10 characters');
  if (y.toUpperCase() === n.toUpperCase()) throw bad('they must differ (ignoring case)');
  if (y.toUpperCase() === 'NO' || n.toUpperCase() === 'YES') throw bad('a ticker may not name the other outcome');
  return { yes: y, no: n };
}
