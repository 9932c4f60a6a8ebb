/**
 * Transaction errors in the JSON shapes a real cluster reports (meta.err, getSignatureStatuses,
 * simulation "err"): `"BlockhashNotFound"`, `{"InstructionError":[1,{"Custom":1}]}`, … LiteSVM
 * reports its errors as napi classes and numeric enums; this maps them to those shapes.
 */
import type { TransactionMetadata } from 'litesvm';
import { FailedTransactionMetadata } from 'litesvm';

/** A transaction error exactly as JSON-RPC reports it. */
export type TransactionErr = string | { [key: string]: unknown };

/** Indexed by LiteSVM's InstructionErrorFieldless (Agave's InstructionError variants). */
const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
];

/** Indexed by LiteSVM's TransactionErrorFieldless (Agave's TransactionError variants). */
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
];

export function instructionErr(index: number, inner: unknown): TransactionErr {
  return { InstructionError: [index, inner] };
}

function mapInstructionError(e: unknown): unknown {
  if (typeof e === 'number') return INSTRUCTION_ERRORS[e] ?? 'GenericError';
  if (e && typeof e === 'object' && 'code' in e) return { Custom: Number((e as { code: number }).code) };
  if (e && typeof e === 'object' && 'msg' in e) return { BorshIoError: String((e as { msg: string }).msg) };
  return 'GenericError';
}

export function mapLiteSvmError(failed: FailedTransactionMetadata): TransactionErr {
  const e: unknown = failed.err();
  if (typeof e === 'number') return TRANSACTION_ERRORS[e] ?? 'SanitizeFailure';
  const obj = e as { index?: number; accountIndex?: number; err?: () => unknown; constructor: { name: string } };
  const kind = obj.constructor.name;
  if (kind.includes('InstructionError') && obj.err) return instructionErr(obj.index ?? 0, mapInstructionError(obj.err()));
  if (kind.includes('DuplicateInstruction')) return { DuplicateInstruction: obj.index ?? 0 };
  if (kind.includes('InsufficientFundsForRent')) return { InsufficientFundsForRent: { account_index: obj.accountIndex ?? 0 } };
  return { ProgramExecutionTemporarilyRestricted: { account_index: obj.accountIndex ?? 0 } };
}

/**
 * Errors a real cluster reports after charging the fee and recording the transaction in a block.
 * Every other error (fee payer missing or broke, sanitize failures, …) drops the transaction
 * before it lands, so it is only ever seen at preflight.
 */
export function isRecordedError(err: TransactionErr): boolean {
  return typeof err === 'object' && !('ProgramExecutionTemporarilyRestricted' in err);
}

export function isFailed(r: TransactionMetadata | FailedTransactionMetadata): r is FailedTransactionMetadata {
  return r instanceof FailedTransactionMetadata;
}

/** Human text for the preflight error message, like Agave's Display impl. */
export function describeErr(err: TransactionErr): string {
  if (err === 'BlockhashNotFound') return 'Blockhash not found';
  if (err === 'AlreadyProcessed') return 'This transaction has already been processed';
  if (err === 'InsufficientFundsForFee') return 'Insufficient funds for fee';
  if (err === 'AccountNotFound') return 'Attempt to debit an account but found no record of a prior credit.';
  if (typeof err === 'object' && 'InstructionError' in err) {
    const [index, inner] = err.InstructionError as [number, unknown];
    const text =
      typeof inner === 'object' && inner && 'Custom' in inner
        ? `custom program error: 0x${Number((inner as { Custom: number }).Custom).toString(16)}`
        : String(inner);
    return `Error processing Instruction ${index}: ${text}`;
  }
  return typeof err === 'string' ? err : JSON.stringify(err);
}
