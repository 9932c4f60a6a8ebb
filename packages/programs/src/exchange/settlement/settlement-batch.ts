/**
 * Pure transaction assembly for the settlement keeper: the largest prefix of the given fills that
 * one v0 transaction carries, within the packet size (1232 bytes), the account-lock limit (64)
 * and the compute budget (1.4M units), as
 *
 *   [ComputeBudget.setComputeUnitLimit, Ed25519 (signatures of orders new on chain), settle]
 *
 * for the operator (fee payer, only signer) and a recent blockhash. When even the first fill
 * does not fit with its orders' signatures, the batch registers orders only (a settle with no
 * fills: the first fill's new orders first, then the next fills' as room allows); once it
 * lands, the fill fits without them. Re-sending a registration is harmless. docs/programs.md, "Settlement
 * batches", has the sizes reached.
 */
import { ComputeBudgetProgram, PublicKey, VersionedTransaction, type TransactionInstruction } from '@solana/web3.js';
import { decodeOrderMessage, orderSigningBytes, orderSigningLength, type OrderMessage } from '../../orderbook/order-message.js';
import { createEd25519Instruction, ED25519_OFFSETS_SIZE, type Ed25519Entry } from '../../solana/ed25519-instruction.js';
import { findClobMarketPda } from '../pda.js';
import { MAX_TX_ACCOUNT_LOCKS, PACKET_DATA_SIZE } from '../../solana/transaction-limits.js';
import { compileV0Message, v0TransactionSize } from '../../solana/v0-message.js';
import { EXCHANGE_PROGRAM_ID } from '../program-id.js';
import { fillTypeOf } from './fill-amounts.js';
import { SETTLE_FILL_BYTES, SETTLE_ORDER_BYTES, SETTLE_TAG_BYTES } from './settle-data.js';
import {
  getSettleInstruction,
  SETTLE_ACCOUNTS_PER_ORDER,
  SETTLE_FIXED_ACCOUNTS,
  type SettleFillInput,
  type SettleOrderInput,
} from './settle-instruction.js';
import { findOrderStatePda } from './settle-pda.js';
import { addressOf } from '../../solana/pda-cache.js';
import { SettlementAssemblyError, type SettlementContext, type SettlementFill, type SignedOrder } from './settlement-types.js';

export const MAX_COMPUTE_UNITS = 1_400_000;
/**
 * Compute estimates for the deployed (sBPF) program, which the embedded reference does not
 * meter: a token CPI costs ~4.5k units, an ATA or account creation ~10–25k, a PDA search ~1.5k
 * per bump tried. Generous on purpose: an underestimate fails the whole batch on a real cluster.
 */
export const SETTLE_COMPUTE = { base: 40_000, perOrder: 60_000, perNewOrder: 20_000, perFill: 60_000 } as const;

export interface SettlementBatch {
  /** Unsigned; the keeper signs it with the operator and persists the bytes before sending. */
  transaction: VersionedTransaction;
  /** 'settle': carries `fills`; 'register': fills is empty, it only creates the first fill's order accounts. */
  kind: 'settle' | 'register';
  fills: SettlementFill[];
  /** OrderState addresses this transaction creates (their signatures travel in it). */
  newOrders: string[];
  size: number;
  accounts: number;
  computeUnitLimit: number;
}

interface OrderSlot {
  address: string;
  owner: PublicKey;
  nonce: bigint;
  outcome: 'yes' | 'no';
  message: Uint8Array;
  signature: Uint8Array;
  /** Not on chain yet: its signature travels in the Ed25519 instruction. */
  needsProof: boolean;
}

function decodeSigned(fill: SettlementFill, o: SignedOrder): OrderMessage {
  try {
    if (o.signature.length !== 64) throw new RangeError('signature must be 64 bytes');
    return decodeOrderMessage(o.message);
  } catch (e) {
    throw new SettlementAssemblyError('INVALID_FILL', fill.fillId, `fill ${fill.fillId}: ${(e as Error).message}`);
  }
}

class BatchPlan {
  readonly orders: OrderSlot[] = [];
  readonly fills: SettleFillInput[] = [];
  private readonly index = new Map<string, number>();

  constructor(
    private readonly ctx: SettlementContext,
    private readonly programId: PublicKey,
    private readonly market: PublicKey,
  ) {}

  private slot(fill: SettlementFill, o: SignedOrder, m: OrderMessage): number {
    const owner = new PublicKey(m.owner);
    const address = addressOf(findOrderStatePda(owner, m.nonce, this.programId)[0]);
    const known = this.index.get(address);
    if (known !== undefined) {
      if (!Buffer.from(this.orders[known]!.message).equals(o.message))
        throw new SettlementAssemblyError('ORDER_NONCE_REUSED', fill.fillId, `two orders of ${owner.toBase58()} share nonce ${m.nonce}`);
      return known;
    }
    const stored = this.ctx.orderStates.get(address);
    if (stored && !Buffer.from(stored.message).equals(o.message)) {
      throw new SettlementAssemblyError(
        'ORDER_NONCE_REUSED',
        fill.fillId,
        `order account ${address} holds another order of ${owner.toBase58()} with nonce ${m.nonce}`,
      );
    }
    this.orders.push({
      address,
      owner,
      nonce: m.nonce,
      outcome: m.outcome,
      message: o.message,
      signature: o.signature,
      needsProof: !stored,
    });
    this.index.set(address, this.orders.length - 1);
    return this.orders.length - 1;
  }

  /** How many of `orders` (in first-use order) the first `n` fills use. */
  ordersUsedBy(n: number): number {
    let max = -1;
    for (const f of this.fills.slice(0, n)) max = Math.max(max, f.taker, f.maker);
    return max + 1;
  }

  add(fill: SettlementFill): void {
    const taker = decodeSigned(fill, fill.takerOrder);
    const maker = decodeSigned(fill, fill.makerOrder);
    const invalid = (why: string) => new SettlementAssemblyError('INVALID_FILL', fill.fillId, `fill ${fill.fillId}: ${why}`);
    if (!Buffer.from(taker.market).equals(this.market.toBuffer()) || !Buffer.from(maker.market).equals(this.market.toBuffer()))
      throw invalid('an order is for another market');
    if (fillTypeOf(taker, maker) !== fill.fillType)
      throw invalid(`the orders make a ${fillTypeOf(taker, maker) ?? 'no'} fill, not ${fill.fillType}`);
    if (fill.quantity <= 0n) throw invalid('quantity must be positive');
    this.fills.push({
      fillId: fill.fillId,
      taker: this.slot(fill, fill.takerOrder, taker),
      maker: this.slot(fill, fill.makerOrder, maker),
      quantity: fill.quantity,
    });
  }
}

/** Where the Ed25519 instruction sits: right after the compute budget. */
const PROOF_IX = 1;

function computeUnits(orders: number, proven: number, fills: number): number {
  return SETTLE_COMPUTE.base + SETTLE_COMPUTE.perOrder * orders + SETTLE_COMPUTE.perNewOrder * proven + SETTLE_COMPUTE.perFill * fills;
}

function compile(
  ctx: SettlementContext,
  programId: PublicKey,
  orders: OrderSlot[],
  fills: SettleFillInput[],
): Omit<SettlementBatch, 'kind' | 'fills'> | null {
  const proven = orders.filter((o) => o.needsProof);
  const units = computeUnits(orders.length, proven.length, fills.length);
  if (units > MAX_COMPUTE_UNITS) return null;
  const settleOrders: SettleOrderInput[] = orders.map((o) => ({
    owner: o.owner,
    nonce: o.nonce,
    outcome: o.outcome,
    proof: o.needsProof ? { ix: PROOF_IX, entry: proven.indexOf(o) } : undefined,
  }));
  const ixs: TransactionInstruction[] = [ComputeBudgetProgram.setComputeUnitLimit({ units })];
  if (proven.length) {
    const entries: Ed25519Entry[] = proven.map((o) => ({
      publicKey: o.owner.toBytes(),
      signature: o.signature,
      message: orderSigningBytes(o.message),
    }));
    ixs.push(createEd25519Instruction(entries));
  }
  ixs.push(
    getSettleInstruction({
      operator: ctx.operator,
      marketUuid: ctx.marketUuid,
      usdcMint: ctx.usdcMint,
      feeWallet: ctx.feeWallet,
      orders: settleOrders,
      fills,
      tag: ctx.tag,
      programId,
    }),
  );
  // Compiled from the keys' bytes (solana/v0-message.ts): web3.js's compiler was most of planning.
  const message = compileV0Message(ctx.operator, ixs, ctx.recentBlockhash, ctx.lookupTables ?? []);
  const size = v0TransactionSize(message);
  const transaction = new VersionedTransaction(message);
  const m = transaction.message;
  const accounts =
    m.staticAccountKeys.length + m.addressTableLookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
  if (size > PACKET_DATA_SIZE || accounts > MAX_TX_ACCOUNT_LOCKS) return null;
  return { transaction, newOrders: proven.map((o) => o.address), size, accounts, computeUnitLimit: units };
}

/**
 * Accounts the first `n` fills lock, counted without building anything (compiling a message per
 * candidate costs ~1 ms): the fixed accounts and programs, per order its state account, per
 * owner the smart wallet and its USDC account, per owner and outcome its token account, per
 * fill its receipt. It bounds the binary search over prefix lengths.
 */
function lockedAccounts(plan: BatchPlan, n: number): number {
  const keys = new Set<string>();
  for (const o of plan.orders.slice(0, plan.ordersUsedBy(n))) {
    const owner = addressOf(o.owner); // once per order of the plan, not per candidate length
    keys.add(o.address).add(owner).add(`${owner}:usdc`).add(`${owner}:${o.outcome}`);
  }
  return SETTLE_FIXED_ACCOUNTS + 4 + keys.size + n;
}

/**
 * A lower bound of the size of a transaction settling `fills` fills of `orders`, short of the
 * exact size only by its lookup-table section: the operator's signature, the version, header and
 * blockhash, the keys that are never looked up (the operator, the invoked programs — compute
 * budget, exchange, and Ed25519 when a proof travels — and each order's and receipt's account,
 * which the market's tables do not hold: lookup-table.ts), the compute-budget instruction, the
 * settle instruction (an index per account, its data) and each new order's proof (14 bytes of
 * offsets, the key, the signature and the signed `PMX Order:` text). A candidate above the
 * packet size cannot fit, so the search never compiles it, and the largest candidate within the
 * bounds usually fits: most batches compile once (with one new maker per fill, 2 fills are
 * ~1130 bytes by this bound and 1183 compiled; a third passes 1232 either way).
 */
function minimumSize(orders: readonly OrderSlot[], fills: number): number {
  const settleAccounts = SETTLE_FIXED_ACCOUNTS + SETTLE_ACCOUNTS_PER_ORDER * orders.length + fills;
  const settleData = 8 + SETTLE_TAG_BYTES + 1 + SETTLE_ORDER_BYTES * orders.length + 1 + SETTLE_FILL_BYTES * fills;
  // signature · version, header and three lengths · blockhash · never-looked-up keys
  let bytes = 1 + 64 + (1 + 3 + 3) + 32 + 32 * (3 + orders.length + fills);
  bytes += 8; // compute budget: program index, no accounts, 5 bytes of data
  bytes += 1 + 1 + settleAccounts + 1 + settleData; // settle: program index, accounts, data
  let proofs = 0;
  for (const o of orders) {
    if (!o.needsProof) continue;
    proofs++;
    bytes += ED25519_OFFSETS_SIZE + 32 + 64 + orderSigningLength(o.message);
  }
  // Ed25519: its program key, index, no accounts, a 2-byte data length, the count and padding.
  return proofs > 0 ? bytes + 32 + 1 + 1 + 2 + 2 : bytes;
}

const prefixSize = (plan: BatchPlan, n: number) => minimumSize(plan.orders.slice(0, plan.ordersUsedBy(n)), n);

/** The fills in order until `full(plan)`; a bad fill ends them (thrown when it is the first: the caller reports it). */
function planOf(
  fills: readonly SettlementFill[],
  ctx: SettlementContext,
  programId: PublicKey,
  full: (plan: BatchPlan) => boolean,
): BatchPlan {
  const plan = new BatchPlan(ctx, programId, findClobMarketPda(ctx.marketUuid, programId)[0]);
  for (const fill of fills.slice(0, 255)) {
    try {
      plan.add(fill);
    } catch (e) {
      // Settle what precedes a bad fill; the next batch starts with it and reports it.
      if (plan.fills.length > 0 && e instanceof SettlementAssemblyError) break;
      throw e;
    }
    if (full(plan)) break;
  }
  return plan;
}

/** The largest prefix of `fills` that fits one transaction (see the module comment). */
export function buildSettlementBatch(fills: readonly SettlementFill[], ctx: SettlementContext): SettlementBatch {
  if (fills.length === 0) throw new SettlementAssemblyError('NOTHING_FITS', null, 'no fills to settle');
  const programId = ctx.programId ?? EXCHANGE_PROGRAM_ID;
  // The first prefix past either bound ends the candidates (the search below may still refuse it).
  const plan = planOf(
    fills,
    ctx,
    programId,
    (p) => lockedAccounts(p, p.fills.length) > MAX_TX_ACCOUNT_LOCKS || prefixSize(p, p.fills.length) > PACKET_DATA_SIZE,
  );
  const build = (n: number): SettlementBatch | null => {
    const built = compile(ctx, programId, plan.orders.slice(0, plan.ordersUsedBy(n)), plan.fills.slice(0, n));
    return built && { ...built, kind: 'settle', fills: fills.slice(0, n) };
  };
  // The largest prefix within both bounds usually fits (they are tight): compile it first. Else a
  // binary search below it for the largest prefix that compiles within every limit (fitting is monotone).
  let hi = plan.fills.length;
  while (hi > 1 && (lockedAccounts(plan, hi) > MAX_TX_ACCOUNT_LOCKS || prefixSize(plan, hi) > PACKET_DATA_SIZE)) hi--;
  let best = build(hi);
  if (best) return best;
  let lo = 1;
  hi--;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = build(mid);
    if (b) {
      best = b;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best) return best;
  // The first fill does not fit with its orders' signatures: register new orders of these fills,
  // the first fill's first, as many as one transaction carries.
  const registration = registrationOf(ctx, programId, plan.orders.slice(0, plan.ordersUsedBy(Math.min(plan.fills.length, 8))));
  if (registration) return registration;
  throw new SettlementAssemblyError('NOTHING_FITS', fills[0]!.fillId, `fill ${fills[0]!.fillId} fits no transaction`);
}

/** A settle with no fills carrying the proofs of as many of `orders`' new ones as fit (first ones first). */
function registrationOf(ctx: SettlementContext, programId: PublicKey, orders: readonly OrderSlot[]): SettlementBatch | null {
  const fresh = orders.filter((o) => o.needsProof);
  // The size bound gives the most that could fit; compile downwards from there (usually once).
  let most = 0;
  while (most < fresh.length && minimumSize(fresh.slice(0, most + 1), 0) <= PACKET_DATA_SIZE) most++;
  for (let n = most; n >= 1; n--) {
    const built = compile(ctx, programId, fresh.slice(0, n), []);
    if (built) return { ...built, kind: 'register', fills: [] };
  }
  return null;
}
