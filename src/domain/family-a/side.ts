/** Outcome sides: canonical YES/NO, tickers resolved case-insensitively (spec rule 1). */
import { parseSide as matchSide, type Side } from '../amm/index.js';
import { DomainError } from '../errors.js';

export type { Side };

/** The one ticker rule of the service (domain/amm/side.ts), with Family A's refusal. */
export function parseSide(value: string, tickers: { yes: string; no: string } = { yes: 'YES', no: 'NO' }): Side {
  const side = matchSide(value, { yesTicker: tickers.yes, noTicker: tickers.no });
  if (side) return side;
  throw new DomainError('invalid', 'VALIDATION_ERROR', `side must be YES or NO (or the market's tickers ${tickers.yes}/${tickers.no})`);
}

/** The capitalised outcome names of Family A responses ("Yes"/"No"). */
export function outcomeLabel(side: Side): 'Yes' | 'No' {
  return side === 'YES' ? 'Yes' : 'No';
}
