/**
 * The hand-written Solana primitives of packages/programs/src/solana against what @solana/kit,
 * @solana/web3.js or Node already offer, in the shape the callers use them (web3.js PublicKeys and
 * TransactionInstructions in, synchronous answers out), measured in the same run: rounds of 0.4 s
 * alternate between the contenders and each one's median round is reported, with its ratio to the
 * first contender (ratio > 1: faster than it). The caches on top (isOnCurveCached,
 * findProgramAddressCached, addressOf) never answer here: every call is a miss (the curve check
 * goes through isOnCurveCached, the only way the package exports it, with more keys than it holds).
 *
 * kit's curve check and PDA derivation take base58 addresses and its PDA and signing are async
 * (WebCrypto); a sync caller cannot await them, so their numbers say what the async version would
 * cost a caller rewritten to await, one call after another. kit's message compiler orders
 * accounts by address collation, not first-seen as web3.js's Message.compile: its bytes differ.
 */
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  type Address,
  type Blockhash,
  compileTransactionMessage,
  createKeyPairFromBytes,
  createTransactionMessage,
  getAddressDecoder,
  getCompiledTransactionMessageEncoder,
  getProgramDerivedAddress,
  type Instruction,
  isOffCurveAddress,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signBytes,
} from '@solana/kit';
import {
  AddressLookupTableAccount,
  Keypair,
  Message,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { addressOf, compileLegacyMessage, compileV0Message, deriveProgramAddress, isOnCurveCached, signTransaction } from '@pmx/programs';

const ROUND_MS = 400;
const ROUNDS = 7;

type Body = (i: number) => unknown;

/**
 * Calls per second of `body` over one round, its argument counting on from `first` (so that a
 * cache in front of a check meets new keys every round); async bodies are awaited one after another.
 */
async function round(body: Body, first: number): Promise<{ opsPerSecond: number; next: number }> {
  const started = performance.now();
  let i = first;
  while (performance.now() - started < ROUND_MS) {
    for (let k = 0; k < 16; k++) {
      const out = body(i++);
      if (out instanceof Promise) await out;
    }
  }
  return { opsPerSecond: (i - first) / ((performance.now() - started) / 1000), next: i };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median ops/s of each contender, rounds interleaved so that a busy neighbour slows all of them alike. */
async function compare(title: string, contenders: Record<string, Body>): Promise<void> {
  const names = Object.keys(contenders);
  const samples = new Map<string, number[]>(names.map((n) => [n, []]));
  const next = new Map<string, number>(names.map((n) => [n, 0]));
  const measure = async (name: string): Promise<number> => {
    const { opsPerSecond, next: after } = await round(contenders[name]!, next.get(name)!);
    next.set(name, after);
    return opsPerSecond;
  };
  for (const name of names) await measure(name); // warm-up (JIT, key objects, codecs)
  for (let r = 0; r < ROUNDS; r++) {
    // Each round starts with the next contender: none always follows the garbage of the same other.
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      samples.get(name)!.push(await measure(name));
    }
  }
  const base = median(samples.get(names[0]!)!);
  console.log(`  ${title}`);
  for (const name of names) {
    const opsPerSecond = median(samples.get(name)!);
    console.log(`    ${name.padEnd(62)} ${Math.round(opsPerSecond).toString().padStart(9)} ops/s  ${(opsPerSecond / base).toFixed(2)}×`);
  }
}

const POOL = 1024;
const pick = <T>(pool: readonly T[], i: number): T => pool[i % pool.length]!;

/** isOnCurveCached's wrapper (a map by the key's latin1 text, cleared when full) around another check. */
function cachedLike(check: (bytes: Uint8Array) => boolean): (bytes: Uint8Array) => boolean {
  const seen = new Map<string, boolean>();
  return (bytes) => {
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    let on = seen.get(key);
    if (on === undefined) {
      if (seen.size >= 50_000) seen.clear();
      seen.set(key, (on = check(bytes)));
    }
    return on;
  };
}

async function curveCheck(): Promise<void> {
  // Callers ask isOnCurveCached (the package exports the check only behind its cache): more keys
  // than the cache holds, visited in a cycle, make every call a miss.
  const bytes = Array.from({ length: 65_536 }, () => new Uint8Array(randomBytes(32)));
  const decoder = getAddressDecoder();
  const web3 = cachedLike((b) => PublicKey.isOnCurve(b));
  const kit = cachedLike((b) => !isOffCurveAddress(decoder.decode(b)));
  const addresses = bytes.slice(0, 1024).map((b) => decoder.decode(b));
  await compare('curve check of 32 random bytes (half on the curve), a cache miss each call', {
    'hand-written isOnCurveCached (Jacobi symbol)': (i) => isOnCurveCached(pick(bytes, i)),
    'web3.js PublicKey.isOnCurve (noble point decoding)': (i) => web3(pick(bytes, i)),
    'kit isOffCurveAddress (bytes → base58 → bytes → check)': (i) => kit(pick(bytes, i)),
    'kit isOffCurveAddress given base58, no cache (its best case)': (i) => isOffCurveAddress(pick(addresses, i)),
  });
}

async function programAddress(): Promise<void> {
  // An order-state PDA as findOrderStatePda asks it: ['order', owner, u64 nonce], a new owner each call.
  const program = Keypair.generate().publicKey;
  const programAddress = address(program.toBase58());
  const label = Buffer.from('order');
  const seeds = Array.from({ length: POOL }, (_, n) => [label, randomBytes(32), Buffer.alloc(8, n)]);
  await compare('PDA derivation (order state: 3 seeds), uncached, a PublicKey out', {
    'hand-written deriveProgramAddress (node SHA-256, Jacobi)': (i) => deriveProgramAddress(pick(seeds, i), program),
    'web3.js PublicKey.findProgramAddressSync': (i) => PublicKey.findProgramAddressSync(pick(seeds, i), program),
    'kit getProgramDerivedAddress (async, WebCrypto), awaited': async (i) => {
      const [found, bump] = await getProgramDerivedAddress({ programAddress, seeds: pick(seeds, i) });
      return [new PublicKey(found), bump];
    },
  });
}

async function signing(): Promise<void> {
  // A settlement-shaped v0 transaction signed by the operator, as settle-group.ts does.
  const operator = Keypair.generate();
  const instructions = Array.from({ length: 4 }, () =>
    SystemProgram.transfer({
      fromPubkey: operator.publicKey,
      toPubkey: Keypair.generate().publicKey,
      lamports: 5,
    }),
  );
  const message = new TransactionMessage({
    payerKey: operator.publicKey,
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
    instructions,
  }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  const kitKeys = await createKeyPairFromBytes(operator.secretKey);
  const nodeKey = createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), operator.secretKey.subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
  await compare('signing a v0 transaction (4 transfers) by one signer', {
    'hand-written signTransaction (node:crypto KeyObject)': () => signTransaction(transaction, [operator]),
    'web3.js VersionedTransaction.sign (noble, JavaScript)': () => transaction.sign([operator]),
    'kit signBytes (async, WebCrypto CryptoKey), awaited': async () => {
      transaction.addSignature(operator.publicKey, await signBytes(kitKeys.privateKey, transaction.message.serialize()));
    },
    'node crypto.sign alone (the floor)': () => sign(null, transaction.message.serialize(), nodeKey),
  });
}

const toRole = (signer: boolean, writable: boolean): AccountRole =>
  signer ? (writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER) : writable ? AccountRole.WRITABLE : AccountRole.READONLY;

function kitMessageBytes(payer: PublicKey, instructions: readonly TransactionInstruction[], blockhash: string) {
  const kitInstructions: Instruction[] = instructions.map((ix) => ({
    programAddress: addressOf(ix.programId) as Address,
    accounts: ix.keys.map((k) => ({ address: addressOf(k.pubkey) as Address, role: toRole(k.isSigner, k.isWritable) })),
    data: ix.data,
  }));
  const lifetime = { blockhash: blockhash as Blockhash, lastValidBlockHeight: 0n };
  const transactionMessage = appendTransactionMessageInstructions(
    kitInstructions,
    setTransactionMessageLifetimeUsingBlockhash(
      lifetime,
      setTransactionMessageFeePayer(addressOf(payer) as Address, createTransactionMessage({ version: 'legacy' })),
    ),
  );
  return getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(transactionMessage));
}

async function legacyMessage(): Promise<void> {
  // A buy-shaped message: two ATA creations and a 12-account program instruction, keys shared between them;
  // fresh instruction objects per call (builders make new ones per request), the same 16 distinct keys.
  const keys = Array.from({ length: 16 }, () => Keypair.generate().publicKey);
  const blockhash = Keypair.generate().publicKey.toBase58();
  const payer = keys[0]!;
  const build = (): TransactionInstruction[] => [
    new TransactionInstruction({
      programId: keys[13]!,
      keys: [0, 4, 0, 5, 14, 15].map((k, n) => ({ pubkey: keys[k]!, isSigner: n === 0, isWritable: n < 2 })),
      data: Buffer.of(1),
    }),
    new TransactionInstruction({
      programId: keys[13]!,
      keys: [0, 6, 0, 7, 14, 15].map((k, n) => ({ pubkey: keys[k]!, isSigner: n === 0, isWritable: n < 2 })),
      data: Buffer.of(1),
    }),
    new TransactionInstruction({
      programId: keys[12]!,
      keys: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15].map((k, n) => ({ pubkey: keys[k]!, isSigner: n === 0, isWritable: n < 8 })),
      data: Buffer.alloc(25, 7),
    }),
  ];
  await compare('legacy message bytes of a buy-shaped transaction (3 instructions, 16 keys)', {
    'hand-written compileLegacyMessage': () => compileLegacyMessage(payer, build(), blockhash).message,
    'web3.js Message.compile + serialize (same bytes)': () =>
      Message.compile({ payerKey: payer, recentBlockhash: blockhash, instructions: build() }).serialize(),
    'kit compileTransactionMessage + encoder (other key order)': () => kitMessageBytes(payer, build(), blockhash),
  });
}

async function v0Message(): Promise<void> {
  // A settlement-shaped v0 message: the compute budget, then a settle instruction over 10 market
  // accounts, 4 orders (state, smart wallet, USDC and outcome accounts) and 2 receipts; the
  // market's two lookup tables (256 addresses each) hold the market's and the traders' accounts,
  // not the order states and receipts. The same key objects every call (the builders' PDAs are
  // cached), fresh instructions (one message per candidate batch); kit is left out: its
  // compression through lookup tables is a second pass over its own compiled message.
  const fresh = () => Keypair.generate().publicKey;
  const payer = fresh();
  const [budget, exchange] = [fresh(), fresh()];
  const market = Array.from({ length: 10 }, fresh);
  const orders = Array.from({ length: 4 }, () => ({ state: fresh(), wallet: fresh(), usdc: fresh(), outcome: fresh() }));
  const receipts = [fresh(), fresh()];
  const filler = () => Array.from({ length: 256 }, fresh);
  const first = filler();
  market.forEach((k, n) => (first[40 + n * 20] = k));
  const second = filler();
  orders.forEach((o, n) => [o.wallet, o.usdc, o.outcome].forEach((k, m) => (second[200 + n * 12 + m] = k)));
  const tables = [first, second].map(
    (addresses) =>
      new AddressLookupTableAccount({
        key: fresh(),
        state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses },
      }),
  );
  const blockhash = fresh().toBase58();
  const build = (): TransactionInstruction[] => [
    new TransactionInstruction({ programId: budget, keys: [], data: Buffer.alloc(5, 2) }),
    new TransactionInstruction({
      programId: exchange,
      keys: [
        { pubkey: payer, isSigner: true, isWritable: true },
        ...market.map((pubkey, n) => ({ pubkey, isSigner: false, isWritable: n > 2 })),
        ...orders.flatMap((o) => [
          { pubkey: o.state, isSigner: false, isWritable: true },
          { pubkey: o.wallet, isSigner: false, isWritable: false },
          { pubkey: o.usdc, isSigner: false, isWritable: true },
          { pubkey: o.outcome, isSigner: false, isWritable: true },
        ]),
        ...receipts.map((pubkey) => ({ pubkey, isSigner: false, isWritable: true })),
      ],
      data: Buffer.alloc(300, 9),
    }),
  ];
  await compare('v0 message bytes of a settlement-shaped transaction (2 instructions, 30 keys, 2 lookup tables of 256)', {
    'hand-written compileV0Message + serialize': () => compileV0Message(payer, build(), blockhash, tables).serialize(),
    'web3.js compileToV0Message + serialize (same bytes)': () =>
      new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions: build() }).compileToV0Message(tables).serialize(),
  });
}

async function base58(): Promise<void> {
  // addressOf's miss: a new PublicKey's text (its hit is a WeakMap lookup).
  const keys = Array.from({ length: POOL }, () => Keypair.generate().publicKey);
  const bytes = keys.map((k) => k.toBytes());
  const decoder = getAddressDecoder();
  await compare('base58 text of a public key (what addressOf caches)', {
    'web3.js PublicKey.toBase58': (i) => pick(keys, i).toBase58(),
    'kit getAddressDecoder().decode(bytes)': (i) => decoder.decode(pick(bytes, i)),
  });
}

export async function run(): Promise<void> {
  await curveCheck();
  await programAddress();
  await signing();
  await legacyMessage();
  await v0Message();
  await base58();
}
