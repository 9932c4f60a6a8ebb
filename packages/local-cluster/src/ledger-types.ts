/** What the embedded ledger is opened with, and what its sends and simulations answer. */
import type { Logger } from 'pino';
import type { ProgramHandler } from './program-runtime.js';
import type { TransactionErr } from './tx-errors.js';

export interface LedgerOptions {
  /** Persistence root (state under `ledger/`, keys under `keys/`); undefined = memory only. */
  dataDir?: string;
  /** Where the keys live when not under `dataDir/keys/` (the daemon's KEYS_DIR). */
  keysDir?: string;
  programs?: ProgramHandler[];
  logger?: Logger;
  /** Slot duration (default 400 ms, as on mainnet). */
  slotMs?: number;
  /** Snapshot cadence (defaults: every 2000 transactions or 60 s). */
  snapshotEveryTransactions?: number;
  snapshotEveryMs?: number;
}

export interface SendOptions {
  /** Refuse (throw) a transaction whose execution fails, as a node's preflight does. */
  preflight?: boolean;
  /**
   * Commit with the other transactions landed in this turn of the event loop, at its end
   * (group-commit.ts), instead of at once: for concurrent senders (the JSON-RPC endpoint).
   */
  groupCommit?: boolean;
}

export interface SendResult {
  signature: string;
  /** The landed transaction's error (null on success or when it has not executed yet). */
  err: TransactionErr | null;
  /** Slot it landed in; null when dropped or delayed by fault injection. */
  slot: number | null;
}

export interface SimulationOutcome {
  err: TransactionErr | null;
  logs: string[];
  unitsConsumed: number;
}
