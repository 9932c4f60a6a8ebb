/**
 * Maps market refusals to API errors. Amm errors come from the same pure functions the program
 * runs, so a refusal here is exactly the on-chain error the transaction would have hit.
 */
import { AmmError, type MarketState } from '@pmx/programs';
import { DomainError } from '../../domain/errors.js';

export function notActive(state: Pick<MarketState, 'status' | 'winningSide'>): DomainError {
  return new DomainError('conflict', 'MarketNotActive', `Market is ${state.status}; trading is allowed only on an active market`, {
    marketStatus: state.status,
    ...(state.status === 'resolved' && state.winningSide ? { winningSide: state.winningSide } : {}),
  });
}

export function fromAmmError(error: unknown, state: Pick<MarketState, 'status' | 'winningSide'>): never {
  if (!(error instanceof AmmError)) throw error;
  switch (error.errorName) {
    case 'MarketNotActive':
      throw notActive(state);
    case 'SellNotAllowedInPoolMode':
      throw new DomainError('invalid', 'SellNotAllowedInPoolMode', 'Selling is not available in Pool mode markets');
    default:
      throw new DomainError('invalid', error.errorName, `${error.errorName}: ${error.message}`);
  }
}

export function notCreator(creator: string, caller: string): DomainError {
  return new DomainError('forbidden', 'Unauthorized', 'Unauthorized: only the market creator may do this', { creator, caller });
}
