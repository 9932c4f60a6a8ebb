/** Outcome sides: canonical YES/NO, tickers resolved case-insensitively (spec rule 1). */
import { DomainError } from '../errors.js';

export type Side = 'YES' | 'NO';

export function parseSide(value: string, tickers: { yes: string; no: string } = { yes: 'YES', no: 'NO' }): Side {
  const v = value.trim().toUpperCase();
  if (v === 'YES' || v === tickers.yes.toUpperCase()) return 'YES';
  if (v === 'NO' || v === tickers.no.toUpperCase()) return 'NO';
  throw new DomainError('invalid', 'VALIDATION_ERROR', `side must be YES or NO (or the market's tickers ${tickers.yes}/${tickers.no})`);
}

/** The capitalised outcome names of Family A responses ("Yes"/"No"). */
export function outcomeLabel(side: Side): 'Yes' | 'No' {
  return side === 'YES' ? 'Yes' : 'No';
}
