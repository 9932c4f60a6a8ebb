/** Refusals of the engine, as domain errors with stable codes (mapped to 400 by the API). */
import { DomainError } from '../errors.js';

export function invalidOrder(code: string, message: string): DomainError {
  return new DomainError('invalid', code, message);
}

export const WOULD_TAKE = 'WOULD_TAKE';
export const INVALID_ORDER = 'INVALID_ORDER';
export const DUPLICATE_ORDER = 'DUPLICATE_ORDER';
