/**
 * Loads the orders a settle instruction lists. An order settling for the first time must be
 * proven by an Ed25519 instruction of the same transaction (its owner's signature of the order
 * text); its OrderState account is then created with the signed message, so later fills of it
 * need no signature. Every order must be for this market, unexpired, and come with its owner's
 * smart-wallet accounts (outcome and USDC accounts are created when missing; the operator pays).
 */
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import type { AccountMeta, PublicKey, TransactionInstruction } from '@solana/web3.js';
import { PublicKey as Key } from '@solana/web3.js';
import {
  addressOf,
  bytesOf,
  decodeOrderMessage,
  decodeOrderState,
  EMPTY_TOTALS,
  encodeOrderState,
  findOrderStatePda,
  findTokenAccountAddress,
  findUserEscrowPda,
  NO_PROOF,
  ORDER_STATE_SIZE,
  type OrderStateAccount,
  type SettleOrderRef,
} from '@pmx/programs';
import { fail } from './guard.js';
import { orderTermsValid, readOrderProof } from './order-proof.js';
import { programAccountInstructions } from './pda-account.js';
import { refuseOrder, type LoadedOrder, type SettleEnv } from './settle-env.js';

function storedOrder(env: SettleEnv, index: number, key: PublicKey): OrderStateAccount | null {
  const acc = env.ctx.getAccount(key);
  if (!acc || acc.data.length === 0) return null;
  if (!acc.owner.equals(env.programId)) refuseOrder(env, 'OrderMismatch', index, key, null, "the order account is not the program's");
  try {
    return decodeOrderState(acc.data);
  } catch {
    return refuseOrder(env, 'OrderMismatch', index, key, null, 'the order account is not an OrderState');
  }
}

/** The order's message and state: from its account, or from its proof (creating the account). */
function orderState(
  env: SettleEnv,
  index: number,
  ref: SettleOrderRef,
  key: PublicKey,
  sysvar: Uint8Array,
): { state: OrderStateAccount; created: boolean } {
  const stored = storedOrder(env, index, key);
  if (ref.proofIx === NO_PROOF) {
    if (!stored) refuseOrder(env, 'OrderSignatureMissing', index, key, null, 'the order has no account yet and no signature proof');
    return { state: stored, created: false };
  }
  const proof = readOrderProof(sysvar, ref.proofIx, ref.proofEntry);
  if (!proof.ok) refuseOrder(env, proof.error, index, key, null, proof.detail);
  const owner = new Key(proof.message.owner);
  if (!orderTermsValid(proof.message))
    refuseOrder(env, 'InvalidOrderMessage', index, key, owner, 'price must be 1–10000 and quantity at least 1');
  const [expected, bump] = findOrderStatePda(owner, proof.message.nonce, env.programId);
  if (!key.equals(expected)) refuseOrder(env, 'OrderMismatch', index, key, owner, `the order's account is ${expected.toBase58()}`);
  if (stored) {
    // The owner signed another order with the same nonce before: the account keeps the first.
    if (!Buffer.from(stored.message).equals(proof.bytes))
      refuseOrder(env, 'OrderMismatch', index, key, owner, 'another order holds this owner and nonce');
    return { state: stored, created: false };
  }
  return { state: { message: proof.bytes, ...EMPTY_TOTALS, bump }, created: true };
}

/**
 * New orders' accounts, created where they always were in the instruction's sequence, but in one
 * internal transaction for all of a settle's new orders (issue 31, fourteenth pass: two runs of
 * the System program became one in most settle transactions). Nothing between two creations reads
 * what a creation changes (the order's own account, the operator's lamports), and nothing logs
 * or invokes before `flush` runs: a refusal (settle-env.ts), an ATA's creation, any error leaving
 * `loadOrders`, and its end. The creations' instructions are made at the order's turn, so an
 * order that cannot be created fails there, after the earlier ones ran, as before.
 */
class PendingCreations {
  private groups: { instructions: TransactionInstruction[]; pdaSigners: PublicKey[] }[] = [];

  constructor(private readonly env: SettleEnv) {}

  add(key: PublicKey): void {
    const { ctx, operator, programId } = this.env;
    this.groups.push({ instructions: programAccountInstructions(ctx, operator, key, ORDER_STATE_SIZE, programId), pdaSigners: [key] });
  }

  flush(): void {
    if (this.groups.length === 0) return;
    const groups = this.groups;
    this.groups = [];
    this.env.ctx.invokeEach(groups);
  }
}

export function loadOrders(
  env: SettleEnv,
  refs: readonly SettleOrderRef[],
  keys: readonly AccountMeta[],
  sysvar: Uint8Array,
  now: bigint,
): LoadedOrder[] {
  const pending = new PendingCreations(env);
  env.beforeRefusal = () => pending.flush();
  try {
    const seen = new Set<string>();
    const orders = refs.map((ref, index) => loadOrder(env, pending, seen, ref, index, keys, sysvar, now));
    pending.flush();
    return orders;
  } catch (e) {
    pending.flush();
    throw e;
  } finally {
    env.beforeRefusal = undefined;
  }
}

function loadOrder(
  env: SettleEnv,
  pending: PendingCreations,
  seen: Set<string>,
  ref: SettleOrderRef,
  index: number,
  keys: readonly AccountMeta[],
  sysvar: Uint8Array,
  now: bigint,
): LoadedOrder {
  const [stateMeta, escrowMeta, usdcMeta, outcomeMeta] = keys.slice(4 * index, 4 * index + 4) as [
    AccountMeta,
    AccountMeta,
    AccountMeta,
    AccountMeta,
  ];
  const key = stateMeta.pubkey;
  if (seen.has(addressOf(key))) refuseOrder(env, 'DuplicateOrder', index, key, null, 'listed twice');
  seen.add(addressOf(key));
  if (!stateMeta.isWritable || !usdcMeta.isWritable || !outcomeMeta.isWritable) fail('AccountNotWritable', `order ${index} accounts`);
  const { state, created } = orderState(env, index, ref, key, sysvar);
  const message = decodeOrderMessage(state.message);
  const owner = new Key(message.owner);
  if (!key.equals(findOrderStatePda(owner, message.nonce, env.programId)[0]))
    refuseOrder(env, 'OrderMismatch', index, key, owner, "not the order's address");
  if (!bytesOf(env.marketKey).equals(message.market))
    refuseOrder(env, 'WrongMarket', index, key, owner, `the order is for market ${new Key(message.market).toBase58()}`);
  if (now >= message.expiry) refuseOrder(env, 'OrderExpired', index, key, owner, `expired at ${message.expiry}, cluster time ${now}`);
  const escrow = findUserEscrowPda(owner, env.programId)[0];
  if (!escrowMeta.pubkey.equals(escrow)) fail('EscrowMismatch', `order ${index}: the escrow must be ${escrow.toBase58()}`);
  const outcomeMint = message.outcome === 'yes' ? env.market.yesMint : env.market.noMint;
  const escrowUsdc = findTokenAccountAddress(escrow, env.usdcMint);
  const escrowOutcome = findTokenAccountAddress(escrow, outcomeMint);
  if (!usdcMeta.pubkey.equals(escrowUsdc) || !outcomeMeta.pubkey.equals(escrowOutcome))
    fail('InvalidAccount', `order ${index}: smart-wallet token accounts`);
  if (created) pending.add(key);
  for (const [ata, mint] of [
    [escrowUsdc, env.usdcMint],
    [escrowOutcome, outcomeMint],
  ] as const) {
    if (!env.ctx.getAccount(ata)) {
      pending.flush();
      env.ctx.invoke([createAssociatedTokenAccountIdempotentInstruction(env.operator, ata, escrow, mint)]);
    }
  }
  return { index, key, bump: state.bump, owner, message, state, escrow, escrowUsdc, escrowOutcome, outcomeMint };
}

/** Writes every order's running totals back (the accounts exist by now). */
export function saveOrders(env: SettleEnv, orders: readonly LoadedOrder[]): void {
  for (const o of orders) env.ctx.writeAccount(o.key, { lamports: env.ctx.getAccount(o.key)!.lamports, data: encodeOrderState(o.state) });
}
