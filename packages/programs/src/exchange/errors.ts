/**
 * The exchange program's error codes (Anchor numbering from 6000; 6040–6059 are settle's),
 * as they appear in `{"InstructionError":[i,{"Custom":code}]}`.
 */
import { SETTLE_ERRORS } from './settlement/settle-errors.js';

export const EXCHANGE_ERRORS = {
  InstructionFallbackNotFound: { code: 101, message: 'Unknown instruction discriminator' },
  InstructionDidNotDeserialize: { code: 102, message: 'Instruction data could not be decoded' },
  Unauthorized: { code: 6000, message: 'The signer is not the exchange operator' },
  MissingSigner: { code: 6001, message: 'A required signer did not sign' },
  AccountNotWritable: { code: 6002, message: 'A required writable account is read-only' },
  InvalidAccount: { code: 6003, message: 'An account does not match what the instruction requires' },
  EscrowMismatch: { code: 6004, message: 'The escrow is not the smart wallet of the signer' },
  AlreadyInitialized: { code: 6005, message: 'The account already exists' },
  NotInitialized: { code: 6006, message: 'The account does not exist' },
  InvalidAmount: { code: 6007, message: 'The amount must be at least 1 raw unit' },
  InvalidOutcome: { code: 6008, message: 'Outcome must be 0 (YES) or 1 (NO)' },
  InvalidFeeRates: { code: 6009, message: 'Taker fee ≤ 1000 bps and maker rebate ≤ taker fee' },
  MarketPaused: { code: 6010, message: 'The market is paused' },
  MarketResolved: { code: 6011, message: 'The market is resolved' },
  MarketNotResolved: { code: 6012, message: 'The market is not resolved' },
  LosingOutcome: { code: 6013, message: 'Only the winning outcome can be redeemed' },
  InvalidStatusTransition: { code: 6014, message: 'The market status does not allow this' },
  MathOverflow: { code: 6015, message: 'An amount would not fit in a u64' },
  ...SETTLE_ERRORS,
} as const;

export type ExchangeErrorName = keyof typeof EXCHANGE_ERRORS;

export interface ExchangeErrorInfo {
  name: ExchangeErrorName;
  code: number;
  message: string;
}

const BY_CODE = new Map<number, ExchangeErrorInfo>(
  (Object.keys(EXCHANGE_ERRORS) as ExchangeErrorName[]).map((name) => [EXCHANGE_ERRORS[name].code, { name, ...EXCHANGE_ERRORS[name] }]),
);

export function exchangeErrorByCode(code: number): ExchangeErrorInfo | undefined {
  return BY_CODE.get(code);
}

/** Reads the custom code out of `{"InstructionError":[i,{"Custom":code}]}`, when it is ours. */
export function exchangeErrorFromTransactionError(err: unknown): ExchangeErrorInfo | undefined {
  if (typeof err !== 'object' || err === null || !('InstructionError' in err)) return undefined;
  const ie = (err as { InstructionError: unknown }).InstructionError;
  if (!Array.isArray(ie)) return undefined;
  const inner: unknown = ie[1];
  if (typeof inner !== 'object' || inner === null || !('Custom' in inner)) return undefined;
  const code = (inner as { Custom: unknown }).Custom;
  return typeof code === 'number' ? exchangeErrorByCode(code) : undefined;
}
