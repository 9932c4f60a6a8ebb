/** The quote a step 2 presents: a standard payment's own (its memo named it), else the one issued at `quoteIssuedAt`. */
import { findQuote, type QuoteRow } from '../../../db/repositories/family-a-trades.repository.js';
import type { OutcomeSide } from '../../domain/family-a/side.js';
import type { FamilyADeps } from './family-a.deps.js';

export async function presentedQuote(
  deps: FamilyADeps,
  key: { marketId: string; wallet: string; side: OutcomeSide; kind: 'buy' | 'sell' },
  quoteIssuedAt: string,
  standard?: { quote: QuoteRow },
): Promise<QuoteRow | undefined> {
  return standard?.quote ?? findQuote(deps.db, { ...key, issuedAt: new Date(quoteIssuedAt).toISOString() });
}
