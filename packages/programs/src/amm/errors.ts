/**
 * Failures of the pure market math. `name` matches the market program's error name of the same
 * meaning (docs/programs.md), so the program and the API map them without a translation table.
 */
export type AmmErrorName =
  | 'AmountTooSmall'
  | 'InsufficientLiquidity'
  | 'SellNotAllowedInPoolMode'
  | 'MarketNotActive'
  | 'MarketNotResolved'
  | 'NoOpposition'
  | 'CannotCancel'
  | 'MathOverflow'
  | 'InvalidArgument';

export class AmmError extends Error {
  constructor(
    readonly errorName: AmmErrorName,
    message?: string,
  ) {
    super(message ?? errorName);
    this.name = 'AmmError';
  }
}
