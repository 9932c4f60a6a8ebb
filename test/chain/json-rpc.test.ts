// JSON-RPC + PubSub conformance: a plain @solana/web3.js Connection and @solana/spl-token helpers
// against the embedded cluster on random local ports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';
import {
  createAssociatedTokenAccount,
  getAccount,
  getAssociatedTokenAddressSync,
  getMint,
  transfer,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import bs58 from 'bs58';
import { createChain, type Chain } from '../../src/chain/create-chain.js';
import { createEd25519Instruction } from '@pmx/programs';

/**
 * Resolves once every subscription of `conn` was acknowledged by the server. web3.js keeps that
 * state privately: `_subscriptionsByHash[hash].state` turns 'subscribed' when the answer to the
 * subscribe call arrives (there is no public ack). A subscription removed by its own callback
 * (after a notification, so after its ack) counts as acknowledged.
 */
async function subscriptionsAcknowledged(conn: Connection, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const byHash = () => (conn as unknown as { _subscriptionsByHash: Record<string, { state: string }> })._subscriptionsByHash;
  const waiting = () => Object.values(byHash()).filter((s) => s.state === 'pending' || s.state === 'subscribing');
  if (Object.keys(byHash()).length === 0) throw new Error('no subscriptions');
  while (waiting().length > 0) {
    if (Date.now() > deadline)
      throw new Error(
        `subscriptions not acknowledged: ${waiting()
          .map((s) => s.state)
          .join(', ')}`,
      );
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('embedded JSON-RPC endpoint', () => {
  let chain: Chain;
  let conn: Connection;
  let mint: PublicKey;
  const alice = Keypair.generate();
  const bob = Keypair.generate();

  beforeAll(async () => {
    chain = await createChain({ chain: 'embedded', ledgerRpcPort: 0, logger: pino({ level: 'silent' }), slotMs: 100 });
    conn = new Connection(chain.rpcUrl, 'confirmed');
    mint = new PublicKey(chain.ledger!.bootstrapInfo.usdcMint);
    await chain.ledger!.mintUsdc(alice.publicKey, 10_000_000n);
  });
  afterAll(async () => {
    await new Promise((r) => setTimeout(r, 500));
    await chain.close();
  });

  it('serves airdrops, balances and cluster info', async () => {
    const sig = await conn.requestAirdrop(alice.publicKey, 2 * LAMPORTS_PER_SOL);
    const bh = await conn.getLatestBlockhash();
    const conf = await conn.confirmTransaction({ signature: sig, ...bh });
    expect(conf.value.err).toBeNull();
    expect(await conn.getBalance(alice.publicKey)).toBe(2 * LAMPORTS_PER_SOL);
    expect(await conn.isBlockhashValid(bh.blockhash)).toMatchObject({ value: true });
    expect(await conn.getVersion()).toHaveProperty('solana-core');
    expect(typeof (await conn.getGenesisHash())).toBe('string');
    expect((await conn.getEpochInfo()).absoluteSlot).toBeGreaterThan(0);
    expect(await conn.getBlockHeight()).toBeGreaterThan(0);
    expect(await conn.getMinimumBalanceForRentExemption(165)).toBe(2039280);
    expect(await conn.getRecentPrioritizationFees()).toEqual([]);
  });

  it('works with spl-token helpers (ATA creation, transfer, parsed reads)', async () => {
    const m = await getMint(conn, mint);
    expect(m.decimals).toBe(6);
    const bobAta = await createAssociatedTokenAccount(conn, alice, mint, bob.publicKey);
    const aliceAta = getAssociatedTokenAddressSync(mint, alice.publicKey);
    const sig = await transfer(conn, alice, aliceAta, bobAta, alice, 2_500_000n);
    expect((await getAccount(conn, bobAta)).amount).toBe(2_500_000n);
    expect((await conn.getTokenAccountBalance(bobAta)).value.uiAmountString).toBe('2.5');
    const parsed = await conn.getParsedAccountInfo(bobAta);
    expect((parsed.value?.data as { parsed: { info: { owner: string } } }).parsed.info.owner).toBe(bob.publicKey.toBase58());
    const byOwner = await conn.getParsedTokenAccountsByOwner(bob.publicKey, { mint });
    expect(byOwner.value).toHaveLength(1);
    const byProgram = await conn.getTokenAccountsByOwner(alice.publicKey, { programId: TOKEN_PROGRAM_ID });
    expect(byProgram.value[0]?.pubkey.equals(aliceAta)).toBe(true);
    const tx = await conn.getParsedTransaction(sig, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' });
    const post = tx!.meta!.postTokenBalances!.find((t) => t.owner === bob.publicKey.toBase58());
    expect(post?.uiTokenAmount.amount).toBe('2500000');
    const plain = await conn.getTransaction(sig, { maxSupportedTransactionVersion: 0 });
    expect(plain?.meta?.fee).toBe(5000);
    const history = await conn.getSignaturesForAddress(bobAta);
    expect(history.map((h) => h.signature)).toContain(sig);
    const supply = await conn.getTokenSupply(mint);
    expect(BigInt(supply.value.amount)).toBeGreaterThanOrEqual(10_000_000n);
    const pga = await conn.getProgramAccounts(TOKEN_PROGRAM_ID, {
      filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: bob.publicKey.toBase58() } }],
    });
    expect(pga.map((a) => a.pubkey.toBase58())).toEqual([bobAta.toBase58()]);
    const multi = await conn.getMultipleAccountsInfo([bobAta, Keypair.generate().publicKey]);
    expect(multi[0]?.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(multi[1]).toBeNull();
  });

  it('rejects failing transactions at preflight with the cluster error shape', async () => {
    const aliceAta = getAssociatedTokenAddressSync(mint, alice.publicKey);
    const bobAta = getAssociatedTokenAddressSync(mint, bob.publicKey);
    const before = await conn.getBalance(alice.publicKey);
    const err = await transfer(conn, alice, aliceAta, bobAta, alice, 999_000_000n).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SendTransactionError);
    expect(String((err as Error).message)).toMatch(/custom program error: 0x1/);
    expect(await conn.getBalance(alice.publicKey)).toBe(before);
    const res = await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'noSuchMethod' }),
    });
    expect(await res.json()).toMatchObject({ error: { code: -32601 } });
  });

  it('answers batches and simulations', async () => {
    const res = await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getSlot' },
        { jsonrpc: '2.0', id: 2, method: 'getHealth' },
      ]),
    });
    const body = (await res.json()) as { id: number; result: unknown }[];
    expect(body.map((b) => b.id)).toEqual([1, 2]);
    expect(body[1]!.result).toBe('ok');
    const { blockhash } = await conn.getLatestBlockhash();
    const msg = new TransactionMessage({
      payerKey: alice.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 10 * LAMPORTS_PER_SOL })],
    }).compileToV0Message();
    const tx = new VersionedTransaction(msg);
    tx.sign([alice]);
    const sim = await conn.simulateTransaction(tx);
    expect(sim.value.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(sim.value.logs?.some((l) => l.includes('insufficient lamports'))).toBe(true);
    const fee = await conn.getFeeForMessage(msg);
    expect(fee.value).toBe(5000);
    // Ed25519-precompile signatures are charged like transaction signatures.
    const withProofs = new TransactionMessage({
      payerKey: alice.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        createEd25519Instruction(
          [1, 2].map(() => ({ publicKey: bob.publicKey.toBytes(), signature: new Uint8Array(64), message: Buffer.from('m') })),
        ),
      ],
    }).compileToV0Message();
    expect((await conn.getFeeForMessage(withProofs)).value).toBe(15000);
  });

  it('accepts base58 sends, honours skipPreflight and versioned-transaction negotiation', async () => {
    const rpc = async (method: string, params: unknown[]) => {
      const res = await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: { err: unknown } } };
    };
    const { blockhash } = await conn.getLatestBlockhash();
    const v0 = new VersionedTransaction(
      new TransactionMessage({
        payerKey: alice.publicKey,
        recentBlockhash: blockhash,
        instructions: [SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 1_000_000 })],
      }).compileToV0Message(),
    );
    v0.sign([alice]);
    const sent = await rpc('sendTransaction', [bs58.encode(v0.serialize())]);
    expect(sent.result).toBe(bs58.encode(v0.signatures[0]!));
    expect((await rpc('getTransaction', [sent.result, { encoding: 'json' }])).error?.code).toBe(-32015);
    expect((await rpc('sendTransaction', [bs58.encode(v0.serialize())])).error).toMatchObject({
      code: -32002,
      data: { err: 'AlreadyProcessed' },
    });
    // A failing transaction without preflight lands with its error and pays the fee.
    const failing = new VersionedTransaction(
      new TransactionMessage({
        payerKey: alice.publicKey,
        recentBlockhash: blockhash,
        instructions: [SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 10 ** 15 })],
      }).compileToV0Message(),
    );
    failing.sign([alice]);
    const before = await conn.getBalance(alice.publicKey);
    const sig = await conn.sendRawTransaction(failing.serialize(), { skipPreflight: true });
    const st = await conn.getSignatureStatus(sig);
    expect(st.value?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(await conn.getBalance(alice.publicKey)).toBe(before - 5000);
  });

  it('notifies subscriptions (account, slot, logs) and confirms with sendAndConfirmTransaction', async () => {
    const bobBefore = await conn.getBalance(bob.publicKey);
    const seenAccount = new Promise<number>((resolve) => {
      const id = conn.onAccountChange(bob.publicKey, (acc) => {
        void conn.removeAccountChangeListener(id);
        resolve(acc.lamports);
      });
    });
    const seenSlot = new Promise<number>((resolve) => {
      const id = conn.onSlotChange((s) => {
        void conn.removeSlotChangeListener(id);
        resolve(s.slot);
      });
    });
    const seenLogs = new Promise<string>((resolve) => {
      const id = conn.onLogs(bob.publicKey, (l) => {
        void conn.removeOnLogsListener(id);
        resolve(l.signature);
      });
    });
    await subscriptionsAcknowledged(conn); // the server answered each subscribe with its id
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: LAMPORTS_PER_SOL / 10 }),
    );
    const sig = await sendAndConfirmTransaction(conn, tx, [alice]);
    expect(await seenAccount).toBe(bobBefore + LAMPORTS_PER_SOL / 10);
    expect(await seenSlot).toBeGreaterThan(0);
    expect(await seenLogs).toBe(sig);
  });
});
