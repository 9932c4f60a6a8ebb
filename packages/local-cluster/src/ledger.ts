/**
 * EmbeddedLedger: a single-node Solana cluster inside the daemon. LiteSVM holds the accounts and
 * runs the builtin programs; signatures (LiteSVM's check for those it runs alone), recent blockhashes
 * and duplicates are verified as a validator would, execution is all-or-nothing (reference programs
 * included), every landed transaction is recorded durably before it is reported, slots follow wall time.
 */
import { EventEmitter } from 'node:events';
import { PublicKey, SystemProgram, TransactionInstruction, TransactionMessage, VersionedTransaction, type Keypair } from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import type { LiteSVM } from 'litesvm';
import { LedgerError, preflightError } from './ledger-error.js';
import { bootstrapInfo, bootstrapTransactions, loadLedgerKeys, type BootstrapInfo, type LedgerKeys } from './bootstrap.js';
import { fundFaucet } from './faucet-funding.js';
import { LedgerFaults } from './faults.js';
import { LedgerClock } from './ledger-clock.js';
import { GroupCommit } from './group-commit.js';
import { openState, Snapshotter } from './ledger-persistence.js';
import { LedgerQueries } from './ledger-queries.js';
import { assertSigned, parseTransaction, signaturesValid, type ParsedTransaction } from './parsed-transaction.js';
import type { ProgramHandler } from './program-runtime.js';
import { buildRecord } from './record-builder.js';
import { usableLookupTable } from './lookup-tables.js';
import { syncSysvars } from './runtime-sysvars.js';
import { writeAccount } from './svm-accounts.js';
import { executeTransaction, usesHandlers, type ExecutionMode } from './transaction-executor.js';
import type { TransactionRecordStore } from './transaction-record.store.js';
import type { LedgerOptions, SendOptions, SendResult, SimulationOutcome } from './ledger-types.js';
import { describeErr, type TransactionErr } from './tx-errors.js';
import { signTransaction } from '@pmx/programs';

export type { LedgerOptions, SendOptions, SendResult, SimulationOutcome } from './ledger-types.js';

const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

export class EmbeddedLedger extends LedgerQueries {
  /** 'transaction' (TransactionRecord), 'account' ({ address, account, slot }), 'slot' (number). */
  readonly events = new EventEmitter().setMaxListeners(0);
  readonly faults: LedgerFaults;
  readonly bootstrapInfo: BootstrapInfo;
  private readonly handlers = new Map<string, ProgramHandler>();
  private readonly pending = new Set<string>();
  private readonly commits: GroupCommit;
  private readonly snapshotter: Snapshotter;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private sendSequence = 0;

  private constructor(
    svm: LiteSVM,
    store: TransactionRecordStore,
    clock: LedgerClock,
    private readonly keys: LedgerKeys,
    private readonly opts: LedgerOptions,
  ) {
    super(svm, store, clock);
    this.faults = new LedgerFaults((cfg) => {
      clock.expireEarly = cfg.expireBlockhashesEarly;
    });
    this.bootstrapInfo = bootstrapInfo(keys);
    for (const p of opts.programs ?? []) this.registerProgram(p);
    this.commits = new GroupCommit(store);
    // A snapshot holds the state in memory: the records of what it holds are committed first.
    const state = () => (this.commits.flush(), this.svm);
    this.snapshotter = new Snapshotter(opts.dataDir, state, store, () => clock.slot, opts.snapshotEveryTransactions, opts.snapshotEveryMs);
    this.timer = setInterval(() => this.tick(), opts.slotMs ?? 400);
    this.timer.unref();
    syncSysvars(this.svm, this.clock);
  }

  static async open(opts: LedgerOptions = {}): Promise<EmbeddedLedger> {
    const state = openState(opts.dataDir);
    const keys = loadLedgerKeys(opts);
    const clock = new LedgerClock(state.seed, state.startSlot, state.timeOffsetSec);
    const ledger = new EmbeddedLedger(state.svm, state.store, clock, keys, opts);
    fundFaucet(state.svm, state.store, keys);
    if (!state.store.getMeta('bootstrapped')) await ledger.bootstrap();
    opts.logger?.info(
      { slot: clock.slot, replayedAccounts: state.replayed, usdcMint: ledger.bootstrapInfo.usdcMint, persistent: !!opts.dataDir },
      'embedded ledger open',
    );
    return ledger;
  }

  registerProgram(handler: ProgramHandler): void {
    this.handlers.set(handler.programId.toBase58(), handler);
    this.index.addProgram(handler.programId.toBase58());
  }

  /** The platform keypairs, for the composition root (never log them). */
  platformKeypairs(): Pick<LedgerKeys, 'treasury' | 'exchangeOperator' | 'protocolFee' | 'usdcMintAuthority'> {
    const { treasury, exchangeOperator, protocolFee, usdcMintAuthority } = this.keys;
    return { treasury, exchangeOperator, protocolFee, usdcMintAuthority };
  }

  /**
   * Submits signed wire bytes. Throws LedgerError for what a node rejects before landing (bad
   * signature, unknown/expired blockhash, duplicate, fee payer unable to pay, and with
   * `preflight` any execution failure); otherwise the transaction is recorded and its err returned.
   */
  async sendRawTransaction(raw: Uint8Array, opts: SendOptions = {}): Promise<SendResult> {
    this.assertOpen();
    if (this.faults.takeFailedSend()) throw new LedgerError('unavailable', 'injected fault: the node did not accept the transaction');
    const p = parseTransaction(raw, this.resolveTable);
    const delay = this.faults.config.confirmDelayMs;
    // LiteSVM alone on canonical bytes checks signatures (Agave's verify_strict, half node's cost); else here.
    const runtimeVerifies = p.canonical && delay === 0 && !usesHandlers(this.handlers, p);
    if (!runtimeVerifies) assertSigned(p);
    const stale = this.freshnessErr(p);
    const dropped = !stale && this.faults.shouldDrop(raw);
    if (runtimeVerifies && (stale || dropped)) assertSigned(p);
    if (stale) throw preflightError(stale, [], describeErr(stale));
    if (dropped) return { signature: p.signature, err: null, slot: null };
    if (delay > 0) {
      this.pending.add(p.signature);
      setTimeout(() => {
        this.pending.delete(p.signature);
        if (this.closed) return;
        this.land(p, 'commit').catch((e: unknown) => {
          this.opts.logger?.warn({ signature: p.signature, err: (e as Error).message }, 'delayed transaction did not land');
        });
      }, delay);
      return { signature: p.signature, err: null, slot: null };
    }
    return this.land(p, opts.preflight ? 'preflight' : 'commit', opts.groupCommit, runtimeVerifies);
  }

  /** Executes without landing. `sigVerify` defaults to false, like the RPC method. */
  simulateTransaction(raw: Uint8Array, opts: { sigVerify?: boolean; replaceRecentBlockhash?: boolean } = {}): SimulationOutcome {
    this.assertOpen();
    const p = parseTransaction(raw, this.resolveTable);
    if (opts.sigVerify && !signaturesValid(p)) return { err: 'SignatureFailure', logs: [], unitsConsumed: 0 };
    const stale = opts.replaceRecentBlockhash ? null : this.freshnessErr(p);
    if (stale) return { err: stale, logs: [], unitsConsumed: 0 };
    const out = executeTransaction(this.executorDeps(), p, 'simulate');
    return { err: out.err, logs: out.logs, unitsConsumed: out.unitsConsumed };
  }

  /** Dev helper: SOL from the ledger's faucet, as a real recorded transfer. */
  async airdrop(to: PublicKey | string, lamports: bigint): Promise<string> {
    const ix = SystemProgram.transfer({ fromPubkey: this.keys.ledgerFaucet.publicKey, toPubkey: new PublicKey(to), lamports });
    return this.sendInstructions([ix], []);
  }

  /** Dev helper: mints local USDC to `owner`'s associated token account (created if needed). */
  async mintUsdc(owner: PublicKey | string, rawAmount: bigint): Promise<string> {
    const mint = this.keys.usdcMint.publicKey;
    const ownerKey = new PublicKey(owner);
    const ata = getAssociatedTokenAddressSync(mint, ownerKey, true);
    return this.sendInstructions(
      [
        createAssociatedTokenAccountIdempotentInstruction(this.keys.ledgerFaucet.publicKey, ata, ownerKey, mint),
        createMintToInstruction(mint, ata, this.keys.usdcMintAuthority.publicKey, rawAmount),
      ],
      [this.keys.usdcMintAuthority],
    );
  }

  /**
   * Signs with the ledger faucet (fee payer) plus `signers` and lands it; throws if it fails. A
   * memo with a per-process sequence number keeps two identical requests within one blockhash
   * (two equal faucet calls in one slot) from being the same transaction, which the cluster would
   * refuse as already processed.
   */
  async sendInstructions(instructions: TransactionInstruction[], signers: Keypair[]): Promise<string> {
    const memo = Buffer.from(`pmx-ledger ${++this.sendSequence}`);
    const nonce = new TransactionInstruction({ programId: MEMO_PROGRAM_ID, keys: [], data: memo });
    const message = new TransactionMessage({
      payerKey: this.keys.ledgerFaucet.publicKey,
      recentBlockhash: this.clock.latest().blockhash,
      instructions: [...instructions, nonce],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    signTransaction(tx, [this.keys.ledgerFaucet, ...signers]);
    return (await this.land(parseTransaction(tx.serialize()), 'preflight')).signature;
  }

  /**
   * Dev and bench helper: writes an account as it is, outside any transaction (journaled like a
   * transaction's writes). Benchmarks use it to lay out thousands of markets without sending
   * thousands of transactions; nothing in the service calls it.
   */
  setAccount(address: string, account: { owner: string; lamports: bigint; data: Uint8Array }): void {
    const stored = { ...account, executable: false };
    this.commits.flush(); // the journal replays in write order
    writeAccount(this.svm, address, stored);
    this.store.journalAccounts(new Map([[address, stored]]));
    this.index.update(address, stored);
  }

  /** Moves the cluster clock's unix time by `seconds` (tests: make a resolution time pass). */
  warpTime(seconds: number): void {
    this.clock.timeOffsetSec += seconds;
    this.store.setMeta('time_offset', String(this.clock.timeOffsetSec));
    syncSysvars(this.svm, this.clock);
  }

  /** Produces `n` blocks now (tests: expire a blockhash without waiting a minute). */
  advanceSlots(n: number): void {
    for (let i = 0; i < n; i++) this.tick();
  }

  /** Writes a full snapshot now (also done periodically and on close). */
  snapshot(): void {
    this.snapshotter.snapshot();
  }

  get lastSnapshotMs(): number {
    return this.snapshotter.lastDurationMs;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    clearInterval(this.timer);
    this.commits.flush(); // without a data dir a snapshot touches no state
    this.snapshotter.snapshot();
    this.closed = true;
    this.store.close();
    this.events.removeAllListeners();
  }

  /** Executes now; answers (and tells listeners) once its record is committed: now, or with its turn's group. */
  private async land(p: ParsedTransaction, mode: ExecutionMode, groupCommit = false, runtimeVerifies = false): Promise<SendResult> {
    const stale = this.freshnessErr(p);
    if (stale) throw preflightError(stale, [], describeErr(stale));
    const out = executeTransaction(this.executorDeps(), p, mode, runtimeVerifies);
    if (!out.landed && runtimeVerifies) assertSigned(p); // refused before its check (sanitize, fee payer)?
    if (!out.landed) throw preflightError(out.err, out.logs, describeErr(out.err ?? 'SanitizeFailure'));
    const slot = this.clock.slot;
    const record = buildRecord(p, out, slot, this.clock.unixTimestamp());
    for (const [address, account] of out.changed) this.index.update(address, account);
    await this.commits.add(record, out.changed, groupCommit, () => {
      this.recent.add(record.signature, slot, record.err);
      this.snapshotter.noteTransaction();
      for (const [address, account] of out.changed) this.publish('account', { address, account, slot });
      this.publish('transaction', record);
    });
    return { signature: p.signature, err: out.err, slot };
  }

  /**
   * Tells every listener, each in isolation: the transaction is already recorded, so a
   * subscriber's failure must neither reach the sender (who would pay twice after a "failed")
   * nor starve the listeners after it.
   */
  private publish(event: string, payload: unknown): void {
    for (const fn of this.events.listeners(event)) {
      try {
        (fn as (p: unknown) => void)(payload);
      } catch (err) {
        this.opts.logger?.error({ err, event }, 'ledger event listener failed');
      }
    }
  }

  private freshnessErr(p: ParsedTransaction): TransactionErr | null {
    // A valid blockhash means any earlier landing is within the recent window; only an expired one asks SQLite.
    const valid = this.clock.isValid(p.recentBlockhash);
    const recorded = valid ? this.recent.has(p.signature) : this.store.has(p.signature);
    if (recorded || this.commits.has(p.signature) || this.pending.has(p.signature)) return 'AlreadyProcessed';
    if (!valid) return 'BlockhashNotFound';
    return null;
  }

  private executorDeps() {
    return {
      svm: this.svm,
      handlers: this.handlers,
      payer: this.keys.ledgerFaucet,
      clock: () => ({ slot: BigInt(this.clock.slot), unixTimestamp: BigInt(this.clock.unixTimestamp()) }),
    };
  }

  private async bootstrap(): Promise<void> {
    const mintRent = this.svm.minimumBalanceForRentExemption(82n);
    for (const [ixs, signers] of bootstrapTransactions(this.keys, mintRent)) await this.sendInstructions(ixs, signers);
    this.store.setMeta('bootstrapped', this.bootstrapInfo.usdcMint);
  }

  private tick(): void {
    if (this.closed) return;
    this.clock.advance(1);
    this.recent.prune(this.clock.slot);
    syncSysvars(this.svm, this.clock);
    this.publish('slot', this.clock.slot);
    this.snapshotter.maybeSnapshot();
  }

  /** A lookup table's usable addresses now (lookup-tables.ts). */
  private readonly resolveTable = (table: string): readonly string[] | null => usableLookupTable(this.svm, table, this.clock.slot);

  private assertOpen(): void {
    if (this.closed) throw new LedgerError('unavailable', 'the embedded ledger is closed');
  }
}
