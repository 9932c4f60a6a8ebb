/**
 * The market program's error codes (Anchor custom-error numbering from 6000), as they appear in
 * `{"InstructionError":[i,{"Custom":code}]}`. Two Anchor framework codes cover malformed data.
 */
export const MARKET_ERRORS = {
  InstructionFallbackNotFound: { code: 101, message: 'Unknown instruction discriminator' },
  InstructionDidNotDeserialize: { code: 102, message: 'Instruction data could not be decoded' },
  ResolutionTooEarly: { code: 6000, message: 'The market cannot be resolved before its resolution time' },
  NoOpposition: { code: 6001, message: 'Both sides need holders before the market can be resolved' },
  Unauthorized: { code: 6002, message: 'The signer is not allowed to do this' },
  MarketNotActive: { code: 6003, message: 'The market is not active' },
  SlippageExceeded: { code: 6004, message: 'The trade would return less than the minimum out' },
  AmountTooSmall: { code: 6005, message: 'The amount is below the minimum or yields nothing' },
  InvalidSide: { code: 6006, message: 'Side must be 0 (YES) or 1 (NO)' },
  MintsNotInitialized: { code: 6007, message: 'The outcome mints are not initialised' },
  MintsAlreadyInitialized: { code: 6008, message: 'The outcome mints are already initialised' },
  SellNotAllowedInPoolMode: { code: 6009, message: 'Pool-mode markets cannot be sold into' },
  InvalidArgument: { code: 6010, message: 'An instruction argument is out of range' },
  MarketNotResolved: { code: 6011, message: 'The market is neither resolved nor cancelled' },
  NothingToRedeem: { code: 6012, message: 'The token account holds no token of that side' },
  NoFeesToClaim: { code: 6013, message: 'No fees are due' },
  InvalidAccount: { code: 6014, message: 'An account does not match what the instruction requires' },
  AlreadyInitialized: { code: 6015, message: 'The account already exists' },
  NotInitialized: { code: 6016, message: 'The account does not exist' },
  MathOverflow: { code: 6017, message: 'An amount would not fit in a u64' },
  InsufficientLiquidity: { code: 6018, message: 'The AMM reserves cannot cover the trade' },
  CannotCancel: { code: 6019, message: 'The market can still be resolved, so it cannot be cancelled' },
  InvalidTradeFee: { code: 6020, message: 'tradeFeeBps must be between 100 and 400' },
  InvalidSeed: { code: 6021, message: 'The seed must be 0 (Pool) or at least 1 USDC (AMM)' },
  InvalidResolutionTime: { code: 6022, message: 'resolutionTime must lie between 2001 and 2096' },
  StringTooLong: { code: 6023, message: 'title ≤ 80, description ≤ 120, tickers 1–10 characters' },
  MissingSigner: { code: 6024, message: 'A required signer did not sign' },
  AccountNotWritable: { code: 6025, message: 'A required writable account is read-only' },
} as const;

export type MarketErrorName = keyof typeof MARKET_ERRORS;

export interface MarketErrorInfo {
  name: MarketErrorName;
  code: number;
  message: string;
}

const BY_CODE = new Map<number, MarketErrorInfo>(
  (Object.keys(MARKET_ERRORS) as MarketErrorName[]).map((name) => [MARKET_ERRORS[name].code, { name, ...MARKET_ERRORS[name] }]),
);

export function marketErrorByCode(code: number): MarketErrorInfo | undefined {
  return BY_CODE.get(code);
}

export function marketErrorByName(name: MarketErrorName): MarketErrorInfo {
  return { name, ...MARKET_ERRORS[name] };
}

/** Reads the custom code out of `{"InstructionError":[i,{"Custom":code}]}`, when it is ours. */
export function marketErrorFromTransactionError(err: unknown): MarketErrorInfo | undefined {
  if (typeof err !== 'object' || err === null || !('InstructionError' in err)) return undefined;
  const inner = (err as { InstructionError: [number, unknown] }).InstructionError[1];
  if (typeof inner !== 'object' || inner === null || !('Custom' in inner)) return undefined;
  return marketErrorByCode(Number((inner as { Custom: number }).Custom));
}
