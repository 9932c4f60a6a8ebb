/**
 * What a batch needs to know of the owners placing in it, read once at its start inside the
 * batch transaction: used nonces, resting commitments and counts, fill holds, and the smart
 * wallets' indexed balances (USDC and the owned markets' outcome tokens).
 */
import { PublicKey } from '@solana/web3.js';
import type { Transaction } from 'kysely';
import { batchStartRows } from '../../../../db/repositories/clob-batch.repository.js';
import type { Database } from '../../../../db/schema.js';
import { findUserEscrowPda } from '@pmx/programs';
import { emptyStart, type OwnerStart } from '../../../domain/orderbook/index.js';
import type { AcceptedOrder } from '../orders/order-intake.js';
import type { OwnedMarket } from './matcher-types.js';

/** An owner whose funds a batch checks, and for which side and outcome (orders, and the owners of resting orders given a quantity back). */
export interface Holder {
  owner: string;
  marketId: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
}

export interface BatchStart {
  starts: Map<string, OwnerStart>;
  nonces: Set<string>;
}

/** The owners of the resting orders a batch gives a failed fill's quantity back to (their funds are checked too). */
export function giveBackHolders(
  giveBacks: ReadonlyArray<{ marketId: string; orderId: string }>,
  markets: ReadonlyMap<string, OwnedMarket>,
): Holder[] {
  return giveBacks.flatMap((f) => {
    const order = markets.get(f.marketId)?.book.get(f.orderId);
    return order ? [{ owner: order.owner, marketId: f.marketId, side: order.side, outcome: order.outcome }] : [];
  });
}

/** The owners whose funds a batch checks (on PostgreSQL, the rows its fence locks: clob-batch.repository.ts). */
export function batchOwners(orders: readonly AcceptedOrder[], holders: readonly Holder[] = []): string[] {
  return [...new Set([...orders, ...holders].map((x) => x.owner))];
}

/** Escrow addresses remembered per program, by owner (base58 in and out): a batch derived each owner's again. */
const escrows = new WeakMap<PublicKey, Map<string, string>>();
const MAX_ESCROWS = 50_000;

/**
 * The owner's escrow PDA in base58. The derivation itself is cached (@pmx/programs), but reaching
 * it decoded the owner's base58, hexed its bytes and encoded the answer to base58 again, per owner
 * per batch: at one order per batch on PostgreSQL, about 1 % of the API + matcher process (issue 31).
 */
function escrowOf(owner: string, programId: PublicKey): string {
  let known = escrows.get(programId);
  if (!known) escrows.set(programId, (known = new Map()));
  let escrow = known.get(owner);
  if (escrow === undefined) {
    escrow = findUserEscrowPda(new PublicKey(owner), programId)[0].toBase58();
    if (known.size >= MAX_ESCROWS) known.delete(known.keys().next().value!);
    known.set(owner, escrow);
  }
  return escrow;
}

/** Read after the batch's fence (which, on PostgreSQL, locked these owners' rows). */
export async function readBatchStart(
  trx: Transaction<Database>,
  orders: readonly AcceptedOrder[],
  o: { programId: PublicKey; usdcMint: string; markets: ReadonlyMap<string, OwnedMarket>; holders?: readonly Holder[] },
): Promise<BatchStart> {
  const holders: readonly Holder[] = [...orders, ...(o.holders ?? [])];
  const owners = batchOwners(orders, o.holders);
  const escrowOwner = new Map(owners.map((owner) => [escrowOf(owner, o.programId), owner]));
  const mintKey = new Map<string, string>();
  for (const m of o.markets.values()) {
    mintKey.set(m.yesMint, `${m.marketId}:yes`);
    mintKey.set(m.noMint, `${m.marketId}:no`);
  }
  const mints = [
    o.usdcMint,
    ...new Set(
      holders
        .filter((x) => x.side === 'sell')
        .map((x) => {
          const m = o.markets.get(x.marketId);
          return x.outcome === 'yes' ? m?.yesMint : m?.noMint;
        })
        .filter((x): x is string => !!x),
    ),
  ];
  const { nonces, resting, holds, balances } = await batchStartRows(trx, {
    pairs: orders,
    owners,
    escrows: [...escrowOwner.keys()],
    mints,
  });
  const starts = new Map<string, OwnerStart>(owners.map((owner) => [owner, emptyStart()]));
  const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
  for (const r of resting) {
    const s = starts.get(r.owner)!;
    if (r.side === 'buy') s.usdcHeld += r.committed;
    else add(s.tokensHeld, `${r.marketId}:${r.outcome}`, r.committed);
    s.restingTotal += r.orders;
    s.restingByMarket.set(r.marketId, (s.restingByMarket.get(r.marketId) ?? 0) + r.orders);
  }
  for (const h of holds) {
    const s = starts.get(h.owner)!;
    s.usdcHeld += h.usdc;
    add(s.tokensHeld, `${h.marketId}:yes`, h.yes);
    add(s.tokensHeld, `${h.marketId}:no`, h.no);
  }
  for (const b of balances) {
    const s = starts.get(escrowOwner.get(b.owner)!)!;
    if (b.mint === o.usdcMint) s.usdcBalance += b.amount;
    else {
      const k = mintKey.get(b.mint);
      if (k) add(s.tokenBalance, k, b.amount);
    }
  }
  return { starts, nonces };
}
