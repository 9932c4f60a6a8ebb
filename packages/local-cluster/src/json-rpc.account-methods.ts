/**
 * Read-only Solana JSON-RPC methods over the embedded ledger: accounts, balances, token
 * accounts, program accounts, cluster info. `context: {slot}` wrappers where the real API has them.
 */
import { createHash } from 'node:crypto';
import { VersionedMessage } from '@solana/web3.js';
import bs58 from 'bs58';
import { ED25519_PROGRAM_ID } from '@pmx/programs';
import type { EmbeddedLedger } from './ledger.js';
import { programAccountsSliced } from './program-accounts.js';
import { encodeAccount } from './rpc-encoding.js';
import { invalidParams, keyParam, type RpcMethod } from './rpc-error.js';
import { accountEncodingParam, configObject, dataSliceParam, filtersParam, intParam, MAX_ACCOUNT_DATA_LENGTH } from './rpc-params.js';
import { tokenAccountOf, uiTokenAmount } from './token-balances.js';

export const SOLANA_CORE_VERSION = '2.1.21';
const SLOTS_PER_EPOCH = 432_000;

export function accountMethods(
  ledger: EmbeddedLedger,
  decimalsOf: (mint: string) => number = (m) => ledger.getTokenSupply(m)?.decimals ?? 0,
): Record<string, RpcMethod> {
  const ctx = () => ({ slot: ledger.slot, apiVersion: SOLANA_CORE_VERSION });
  /** Account encoding options, validated once per call. */
  const accountCfg = (cfg: unknown) => {
    const c = configObject(cfg);
    return {
      encoding: accountEncodingParam(c.encoding),
      dataSlice: dataSliceParam(c.dataSlice),
      withContext: c.withContext === true,
      filters: c.filters,
    };
  };
  const enc = (address: string, c: ReturnType<typeof accountCfg>) => {
    const acc = ledger.getStoredAccount(address);
    return acc ? encodeAccount(acc, c.encoding, decimalsOf, c.dataSlice) : null;
  };
  const tokenAmountOf = (address: string) => {
    const tok = tokenAccountOf(ledger.getStoredAccount(address));
    if (!tok) throw invalidParams('could not find account');
    return uiTokenAmount(tok.amount, decimalsOf(tok.mint));
  };

  return {
    getAccountInfo: ([pk, cfg]) => ({ context: ctx(), value: enc(keyParam(pk), accountCfg(cfg)) }),
    getMultipleAccounts: ([keys, cfg]) => {
      if (!Array.isArray(keys) || keys.length > 100) throw invalidParams('expected an array of at most 100 pubkeys');
      const c = accountCfg(cfg);
      const valid = keys.map((k) => keyParam(k));
      return { context: ctx(), value: valid.map((k) => enc(k, c)) };
    },
    getBalance: ([pk]) => ({ context: ctx(), value: Number(ledger.getBalance(keyParam(pk))) }),
    getTokenAccountBalance: ([pk]) => ({ context: ctx(), value: tokenAmountOf(keyParam(pk)) }),
    getTokenSupply: ([pk]) => {
      const s = ledger.getTokenSupply(keyParam(pk));
      if (!s) throw invalidParams('Invalid param: not a Token mint');
      return { context: ctx(), value: uiTokenAmount(s.supply, s.decimals) };
    },
    getTokenAccountsByOwner: ([owner, filter, cfg]) => {
      const ownerKey = keyParam(owner, 'owner');
      const f = configObject(filter);
      if ((f.mint === undefined) === (f.programId === undefined)) throw invalidParams('expected exactly one of mint or programId');
      const query = f.mint !== undefined ? { mint: keyParam(f.mint, 'mint') } : { programId: keyParam(f.programId, 'programId') };
      const c = accountCfg(cfg);
      const list = ledger.getTokenAccountsByOwner(ownerKey, query);
      return {
        context: ctx(),
        value: list.map((t) => ({ pubkey: t.address, account: encodeAccount(t.account, c.encoding, decimalsOf, c.dataSlice) })),
      };
    },
    // Read in slices from the ledger's index (program-accounts.ts): asking for a big program
    // never holds the daemon's event loop.
    getProgramAccounts: async ([program, cfg]) => {
      const programKey = keyParam(program, 'program id');
      const c = accountCfg(cfg);
      const filters = filtersParam(c.filters);
      const read = await programAccountsSliced(ledger, programKey, filters);
      const value = read.accounts.map((a) => ({
        pubkey: a.address,
        account: encodeAccount(a.account, c.encoding, decimalsOf, c.dataSlice),
      }));
      return c.withContext ? { context: { slot: read.slot, apiVersion: SOLANA_CORE_VERSION }, value } : value;
    },
    getMinimumBalanceForRentExemption: ([len]) =>
      Number(ledger.minimumBalanceForRentExemption(intParam(len ?? 0, 'data length', MAX_ACCOUNT_DATA_LENGTH))),
    getLatestBlockhash: () => ({ context: ctx(), value: ledger.getLatestBlockhash() }),
    isBlockhashValid: ([hash]) => ({ context: ctx(), value: typeof hash === 'string' && ledger.isBlockhashValid(hash) }),
    getSlot: () => ledger.slot,
    getBlockHeight: () => ledger.blockHeight,
    getEpochInfo: () => ({
      absoluteSlot: ledger.slot,
      blockHeight: ledger.blockHeight,
      epoch: Math.floor(ledger.slot / SLOTS_PER_EPOCH),
      slotIndex: ledger.slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: ledger.transactionCount,
    }),
    getEpochSchedule: () => ({
      firstNormalEpoch: 0,
      firstNormalSlot: 0,
      leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
      slotsPerEpoch: SLOTS_PER_EPOCH,
      warmup: false,
    }),
    getFeeForMessage: ([msg]) => {
      if (typeof msg !== 'string' || msg.length === 0 || msg.length > 2048) throw invalidParams('expected a base64 message');
      const bytes = Buffer.from(msg, 'base64');
      if (bytes.length === 0) throw invalidParams('expected a base64 message');
      const numSigners = (bytes[0]! & 0x80) !== 0 ? bytes[1] : bytes[0];
      return { context: ctx(), value: 5000 * ((numSigners ?? 0) + precompileSignatures(bytes)) };
    },
    getTransactionCount: () => ledger.transactionCount,
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': SOLANA_CORE_VERSION, 'feature-set': 0 }),
    getGenesisHash: () => ledger.genesisHash,
    getIdentity: () => ({ identity: bs58.encode(createHash('sha256').update(ledger.genesisHash).digest()) }),
    getFirstAvailableBlock: () => 0,
    getRecentPrioritizationFees: () => [],
    getBlockTime: () => ledger.unixTimestamp,
  };
}

/** Ed25519-precompile signatures in a message: each costs a signature fee, as on Agave. */
function precompileSignatures(bytes: Uint8Array): number {
  try {
    const m = VersionedMessage.deserialize(bytes);
    return m.compiledInstructions.reduce(
      (n, ix) => n + (m.staticAccountKeys[ix.programIdIndex]?.equals(ED25519_PROGRAM_ID) ? (ix.data[0] ?? 0) : 0),
      0,
    );
  } catch {
    return 0;
  }
}
