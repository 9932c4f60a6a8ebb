/**
 * Read-only Solana JSON-RPC methods over the embedded ledger: accounts, balances, token
 * accounts, program accounts, cluster info. `context: {slot}` wrappers where the real API has them.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { matchesFilters } from '../adapters/account-filters.js';
import type { ProgramAccountFilter } from '../chain-client.js';
import type { EmbeddedLedger } from './ledger.js';
import { encodeAccount, type AccountEncoding } from './rpc-encoding.js';
import { configParam, invalidParams, keyParam, type RpcMethod } from './rpc-error.js';
import { decodeTokenAccount, uiTokenAmount } from './token-balances.js';

export const SOLANA_CORE_VERSION = '2.1.21';
const SLOTS_PER_EPOCH = 432_000;

export function accountMethods(ledger: EmbeddedLedger): Record<string, RpcMethod> {
  const ctx = () => ({ slot: ledger.slot, apiVersion: SOLANA_CORE_VERSION });
  const decimalsOf = (mint: string) => ledger.getTokenSupply(mint)?.decimals ?? 0;
  const enc = (address: string, cfg: Record<string, unknown>) => {
    const acc = ledger.getStoredAccount(address);
    const slice = cfg.dataSlice as { offset: number; length: number } | undefined;
    return acc ? encodeAccount(acc, cfg.encoding as AccountEncoding | undefined, decimalsOf, slice) : null;
  };
  const tokenAmountOf = (address: string) => {
    const tok = decodeTokenAccount(ledger.getStoredAccount(address));
    if (!tok) throw invalidParams('could not find account');
    return uiTokenAmount(tok.amount, decimalsOf(tok.mint));
  };

  return {
    getAccountInfo: ([pk, cfg]) => ({ context: ctx(), value: enc(keyParam(pk), configParam(cfg)) }),
    getMultipleAccounts: ([keys, cfg]) => {
      if (!Array.isArray(keys) || keys.length > 100) throw invalidParams('expected an array of at most 100 pubkeys');
      return { context: ctx(), value: keys.map((k) => enc(keyParam(k), configParam(cfg))) };
    },
    getBalance: ([pk]) => ({ context: ctx(), value: Number(ledger.getBalance(keyParam(pk))) }),
    getTokenAccountBalance: ([pk]) => ({ context: ctx(), value: tokenAmountOf(keyParam(pk)) }),
    getTokenSupply: ([pk]) => {
      const s = ledger.getTokenSupply(keyParam(pk));
      if (!s) throw invalidParams('Invalid param: not a Token mint');
      return { context: ctx(), value: uiTokenAmount(s.supply, s.decimals) };
    },
    getTokenAccountsByOwner: ([owner, filter, cfg]) => {
      const f = configParam(filter);
      if (!f.mint && !f.programId) throw invalidParams('Invalid params: expected mint or programId filter');
      const c = configParam(cfg);
      const list = ledger.getTokenAccountsByOwner(keyParam(owner), { mint: f.mint as string | undefined, programId: f.programId as string | undefined });
      return { context: ctx(), value: list.map((t) => ({ pubkey: t.address, account: encodeAccount(t.account, c.encoding as AccountEncoding, decimalsOf) })) };
    },
    getProgramAccounts: ([program, cfg]) => {
      const c = configParam(cfg);
      const filters = (Array.isArray(c.filters) ? c.filters : []) as ProgramAccountFilter[];
      const value = ledger.getProgramAccounts(keyParam(program))
        .filter((a) => matchesFilters(a.account.data, filters))
        .map((a) => ({ pubkey: a.address, account: encodeAccount(a.account, c.encoding as AccountEncoding, decimalsOf, c.dataSlice as { offset: number; length: number } | undefined) }));
      return c.withContext ? { context: ctx(), value } : value;
    },
    getMinimumBalanceForRentExemption: ([len]) => Number(ledger.minimumBalanceForRentExemption(Number(len ?? 0))),
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
    getEpochSchedule: () => ({ firstNormalEpoch: 0, firstNormalSlot: 0, leaderScheduleSlotOffset: SLOTS_PER_EPOCH, slotsPerEpoch: SLOTS_PER_EPOCH, warmup: false }),
    getFeeForMessage: ([msg]) => {
      if (typeof msg !== 'string') throw invalidParams('expected a base64 message');
      const bytes = Buffer.from(msg, 'base64');
      const numSigners = (bytes[0]! & 0x80) !== 0 ? bytes[1] : bytes[0];
      return { context: ctx(), value: 5000 * (numSigners ?? 0) };
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
