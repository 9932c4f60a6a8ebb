/**
 * The keeper's settle-batch assembly, two trees in one process (issue 31, fourteenth pass): the
 * drain's shape (one new taker sweeping 8 makers × 3 new asks, through the market's lookup table)
 * cut into transactions by `buildSettlementBatch`, signed and serialized as the keeper does, from
 * `other`'s packages and from this tree's, alternated ABBA. Keys, nonces, fill ids and tags are
 * seeded, so both trees must produce the same bytes: the run fails if any transaction differs.
 * Prints CPU µs per fill (assembly + signing + serializing), per round and medians.
 *   npx tsx --conditions=pmx-source bench/support/settle-build-ab.ts /work/wt-base2 [rounds]
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import path, { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AddressLookupTableAccount, Keypair, PublicKey } from '@solana/web3.js';

const [otherRoot = '/work/wt-base2', roundsArg = '8'] = process.argv.slice(2);
const rounds = Number(roundsArg);
const ROUNDS_PER_SAMPLE = 40;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuUs = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
const seeded = (i: number) => Keypair.fromSeed(createHash('sha256').update(`settle-build-ab ${i}`).digest());
const uuidOf = (s: string) => {
  const h = createHash('sha256').update(s).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

async function openTree(root: string) {
  const p = await import(pathToFileURL(path.join(root, 'packages/programs/src/index.ts')).href);
  const operator = seeded(0);
  const makers = Array.from({ length: 8 }, (_, i) => seeded(1 + i));
  const taker = seeded(100);
  const ref = {
    operator: operator.publicKey,
    marketUuid: uuidOf('market'),
    usdcMint: seeded(200).publicKey,
    feeWallet: seeded(201).publicKey,
  };
  const market: Uint8Array = p.findClobMarketPda(ref.marketUuid)[0].toBytes();
  const addresses: PublicKey[] = [
    ...p.marketLookupTableAddresses(ref),
    ...[taker, ...makers].flatMap((k) => p.traderLookupTableAddresses(k.publicKey, ref)),
  ];
  const table = new AddressLookupTableAccount({
    key: seeded(300).publicKey,
    state: {
      deactivationSlot: 2n ** 64n - 1n,
      lastExtendedSlot: 1,
      lastExtendedSlotStartIndex: 0,
      authority: operator.publicKey,
      addresses,
    },
  });
  const order = (k: Keypair, side: 'buy' | 'sell', priceBps: number, quantity: bigint, nonce: bigint) => {
    const message: Uint8Array = p.encodeOrderMessage({
      market,
      owner: k.publicKey.toBytes(),
      side,
      outcome: 'yes',
      priceBps,
      quantity,
      nonce,
      expiry: 2_000_000_000n,
    });
    // The assembly checks a signature's length only (the Ed25519 program verifies it on chain).
    return { message, signature: createHash('sha512').update(message).digest() };
  };
  // As the tree's keeper signs and serializes (settle-group.ts): in one step where the tree has it.
  const signed = (tx: { serialize(): Uint8Array }): Uint8Array => {
    if (p.signAndSerialize) return p.signAndSerialize(tx, [operator]);
    p.signTransaction(tx, [operator]);
    return tx.serialize();
  };
  const blockhashes = Array.from({ length: 7 }, (_, i) => seeded(400 + i).publicKey.toBase58());
  let round = 0;
  /** One drain round; returns the CPU µs of its assembly and the hash of its transactions' bytes. */
  function drainRound() {
    const r = round++;
    const q = 200_000n;
    const bid = order(taker, 'buy', 9000, q * 24n, BigInt(r * 100));
    const fills = makers.flatMap((m, i) =>
      Array.from({ length: 3 }, (_, j) => ({
        fillId: uuidOf(`fill ${r} ${i} ${j}`),
        fillType: 'direct',
        quantity: q,
        takerOrder: bid,
        makerOrder: order(m, 'sell', 5000 + i * 10 + j, q, BigInt(r * 100 + 1 + i * 3 + j)),
      })),
    );
    const orderStates = new Map<string, { message: Uint8Array }>();
    const messageOf = new Map<string, Uint8Array>();
    for (const f of fills)
      for (const o of [f.takerOrder, f.makerOrder])
        messageOf.set(
          p.findOrderStatePda(new PublicKey(o.message.subarray(32, 64)), Buffer.from(o.message).readBigUInt64LE(76))[0].toBase58(),
          o.message,
        );
    const ctx = { ...ref, recentBlockhash: blockhashes[r % blockhashes.length]!, lookupTables: [table] };
    const tags = Array.from({ length: fills.length }, (_, n) => createHash('md5').update(`${r} ${n}`).digest());
    const hash = createHash('sha256');
    const t0 = cpuUs();
    let n = 0;
    for (let rest: typeof fills = fills; rest.length > 0; n++) {
      const b = p.buildSettlementBatch(rest, { ...ctx, tag: tags[n]!, orderStates });
      hash.update(signed(b.transaction));
      for (const address of b.newOrders) orderStates.set(address, { message: messageOf.get(address)! });
      rest = rest.slice(b.fills.length);
    }
    return { us: cpuUs() - t0, fills: fills.length, txs: n, digest: hash.digest('hex') };
  }
  return { drainRound };
}

const trees = [await openTree(resolve(otherRoot)), await openTree(resolve(import.meta.dirname, '../..'))];
for (let i = 0; i < 20; i++) for (const t of trees) t.drainRound(); // warm-up: JIT, caches
// Byte identity: the same rounds from both trees (each tree's round counter is in step).
const perFill: number[][] = [[], []];
let txs = 0;
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1, 1, 0] : [1, 0, 0, 1];
  const us = [0, 0];
  const fills = [0, 0];
  const digests: string[][] = [[], []];
  for (const i of order) {
    for (let k = 0; k < ROUNDS_PER_SAMPLE / 2; k++) {
      const x = trees[i]!.drainRound();
      us[i]! += x.us;
      fills[i]! += x.fills;
      digests[i]!.push(x.digest);
      if (i === 0) txs += x.txs;
    }
  }
  for (let k = 0; k < digests[0]!.length; k++)
    if (digests[0]![k] !== digests[1]![k]) throw new Error(`round ${r}: transaction bytes differ between the trees`);
  for (const i of [0, 1]) perFill[i]!.push(us[i]! / fills[i]!);
  console.log(
    `sample ${r + 1}: ${perFill[0]![r]!.toFixed(1)} (other) ${perFill[1]![r]!.toFixed(1)} (this) µs/fill; load ${loadavg()[0]!.toFixed(1)}`,
  );
}
const ratios = perFill[1]!.map((x, i) => x / perFill[0]![i]!);
console.log(
  JSON.stringify({
    other: resolve(otherRoot),
    identicalTransactions: txs,
    usPerFill: [median(perFill[0]!), median(perFill[1]!)].map((x) => +x.toFixed(1)),
    ratio: +median(ratios).toFixed(3),
    ratioSpread: [Math.min(...ratios), Math.max(...ratios)].map((x) => +x.toFixed(3)),
  }),
);
