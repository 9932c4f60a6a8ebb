/**
 * The settlement drain's transactions, built and landed in one process on an in-memory embedded
 * ledger (bench/settle-tx-cost.bench.ts): 8 makers rest 3 asks each, one taker sweeps them, and
 * every order of a round is new on chain, as in `clob-settlement`'s drain. The keeper's assembly
 * (`buildSettlementBatch`, through the market's lookup table) cuts each round into transactions.
 *
 * `root` is the tree whose packages run (BENCH_TREE: the baseline tree, for an A/B with the same
 * bench); its modules are imported from there, so nothing of this tree's code runs for it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import type { Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';

const MAKERS = 8;
const ASKS_PER_MAKER = 3;
const FILL_QUANTITY = 200_000n;

type Harness = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the tree's own SettleHarness

export interface SettleTx {
  transaction: VersionedTransaction;
  fills: number;
}

export interface SettleWorld {
  root: string;
  /** Builds the next round (one taker, 24 new maker orders) and lands it; returns its CPU split. */
  round(): Promise<{ txs: number; fills: number; assemblyUs: number; sendUs: number; signatures: string[] }>;
  /** The harness (its ledger: records of the signatures a round returns). */
  harness: { ledger: { getTransaction(signature: string): unknown } };
  /** `n` raw SPL transfers (+ memo, as the daemon's baseline), signed first, then landed; returns CPU µs each. */
  rawTransfers(n: number): Promise<number>;
  close(): Promise<void>;
}

function cpuUs(): number {
  const c = process.cpuUsage();
  return c.user + c.system;
}

export async function openSettleWorld(root: string, rounds: number): Promise<SettleWorld> {
  const from = (p: string) => import(pathToFileURL(path.join(root, p)).href);
  const { SettleHarness, USDC } = (await from('test/programs/exchange/settle-harness.ts')) as { SettleHarness: any; USDC: bigint }; // eslint-disable-line @typescript-eslint/no-explicit-any
  const { buildSettlementBatch, findOrderStatePda, signTransaction } = await from('packages/programs/src/index.ts');
  const { outboundTag } = await from('src/services/outbound/outbound-memo.ts');
  const spl = await import('@solana/spl-token');
  const web3 = await import('@solana/web3.js');
  const s: Harness = await SettleHarness.open();
  const market: string = await s.createMarket();
  const tokens = BigInt(Math.ceil((rounds * ASKS_PER_MAKER * Number(FILL_QUANTITY)) / Number(USDC)) + 2) * USDC;
  const makers: Keypair[] = [];
  for (let i = 0; i < MAKERS; i++) makers.push(await s.trader(0n, market, tokens));
  const taker: Keypair = await s.trader(BigInt(rounds + 2) * 30n * USDC);

  // Warm-up: one fill per maker, so the lookup table holds every trader's accounts (the drain's).
  const warm = makers.map((m, i) =>
    s.fill(
      s.order(taker, market, { side: 'buy', outcome: 'yes', priceBps: 9000, quantity: FILL_QUANTITY }),
      s.order(m, market, { side: 'sell', outcome: 'yes', priceBps: 4000 + i, quantity: FILL_QUANTITY }),
      FILL_QUANTITY,
      'direct',
    ),
  );
  await s.settle(market, warm);
  const lookupTables = [await s.ensureLookupTable(market, warm)];

  async function settleRound() {
    const bid = s.order(taker, market, { side: 'buy', outcome: 'yes', priceBps: 9000, quantity: FILL_QUANTITY * 24n });
    const fills = makers.flatMap((m, i) =>
      Array.from({ length: ASKS_PER_MAKER }, (_, j) =>
        s.fill(
          bid,
          s.order(m, market, { side: 'sell', outcome: 'yes', priceBps: 5000 + i * 10 + j, quantity: FILL_QUANTITY }),
          FILL_QUANTITY,
          'direct',
          randomUUID(),
        ),
      ),
    );
    // The keeper's read of the orders on chain (its database's work, not timed); each batch's new
    // orders are on chain for the next, as once it lands.
    const orderStates = new Map(s.orderStates(fills));
    const ctx = { ...s.marketRef(market), recentBlockhash: s.ledger.getLatestBlockhash().blockhash, lookupTables };
    const tags = fills.map(() => outboundTag(randomUUID()));
    // The assembly asks only whether an order is on chain and holds the same message.
    const messageOf = new Map<string, Uint8Array>();
    for (const f of fills)
      for (const o of [f.takerOrder, f.makerOrder]) {
        const owner = new web3.PublicKey(o.message.subarray(32, 64));
        messageOf.set(findOrderStatePda(owner, Buffer.from(o.message).readBigUInt64LE(76))[0].toBase58(), o.message);
      }
    const raws: Uint8Array[] = [];
    const t0 = cpuUs();
    for (let rest = fills; rest.length > 0;) {
      const b = buildSettlementBatch(rest, { ...ctx, tag: tags[raws.length], orderStates });
      signTransaction(b.transaction, [s.h.operator]); // as the keeper signs (node:crypto)
      raws.push(b.transaction.serialize());
      for (const address of b.newOrders) orderStates.set(address, { message: messageOf.get(address)! });
      rest = rest.slice(b.fills.length);
    }
    const t1 = cpuUs();
    const signatures: string[] = [];
    for (const raw of raws) {
      const res = await s.ledger.sendRawTransaction(raw);
      if (res.err !== null) throw new Error(`settle failed: ${JSON.stringify(res.err)}`);
      signatures.push(res.signature);
    }
    const t2 = cpuUs();
    return { txs: raws.length, fills: fills.length, assemblyUs: t1 - t0, sendUs: t2 - t1, signatures };
  }

  const payer = await s.h.wallet(1_000_000n * USDC);
  const to = await s.h.wallet(1n);
  const mint: PublicKey = s.h.usdcMint;
  const [src, dest] = [payer.publicKey, to.publicKey].map((o: PublicKey) => spl.getAssociatedTokenAddressSync(mint, o));
  const memo = new web3.PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
  let sent = 0;
  async function rawTransfers(n: number) {
    const raws = Array.from({ length: n }, () => {
      const message = new web3.TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: s.ledger.getLatestBlockhash().blockhash,
        instructions: [
          spl.createTransferInstruction(src!, dest!, payer.publicKey, 1n),
          new web3.TransactionInstruction({ programId: memo, keys: [], data: Buffer.from(`t${sent++}`) }),
        ],
      }).compileToV0Message();
      const tx = new web3.VersionedTransaction(message);
      signTransaction(tx, [payer]);
      return tx.serialize();
    });
    const t0 = cpuUs();
    for (const raw of raws) {
      const res = await s.ledger.sendRawTransaction(raw);
      if (res.err !== null) throw new Error(`transfer failed: ${JSON.stringify(res.err)}`);
    }
    return (cpuUs() - t0) / n;
  }
  return { root, harness: s, round: settleRound, rawTransfers, close: () => s.close() };
}
