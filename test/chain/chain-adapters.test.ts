// The ChainClient contract, run against both adapters: the in-process embedded adapter and the
// rpc adapter pointed at the embedded cluster's own JSON-RPC/PubSub endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Keypair, PublicKey } from '@solana/web3.js';
import { createTransferInstruction, getAssociatedTokenAddressSync, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { ChainClient } from '../../src/chain/chain-client.js';
import { createChain, type Chain } from '../../src/chain/create-chain.js';
import { ChainError } from '../../src/chain/chain-errors.js';
import { signedTx } from '@pmx/local-cluster/testing';

let chain: Chain;
let rpcChain: Chain;
beforeAll(async () => {
  chain = await createChain({ chain: 'embedded', ledgerRpcPort: 0, logger: pino({ level: 'silent' }), slotMs: 50 });
  rpcChain = await createChain({ chain: 'rpc', rpcUrl: chain.rpcUrl, logger: pino({ level: 'silent' }), commitment: 'confirmed' });
});
afterAll(async () => {
  await rpcChain.close();
  await new Promise((r) => setTimeout(r, 300));
  await chain.close();
});

describe.each([
  ['embedded', () => chain.client],
  ['rpc', () => rpcChain.client],
])('%s adapter', (_name, client: () => ChainClient) => {
  const alice = Keypair.generate();
  const bob = Keypair.generate();
  let mint: PublicKey;
  let aliceAta: PublicKey;
  let bobAta: PublicKey;

  beforeAll(async () => {
    const ledger = chain.ledger!;
    mint = new PublicKey(ledger.bootstrapInfo.usdcMint);
    await ledger.airdrop(alice.publicKey, 1_000_000_000n);
    await ledger.mintUsdc(alice.publicKey, 7_000_000n);
    await ledger.mintUsdc(bob.publicKey, 1n);
    aliceAta = getAssociatedTokenAddressSync(mint, alice.publicKey);
    bobAta = getAssociatedTokenAddressSync(mint, bob.publicKey);
  });

  it('reads accounts, token accounts and program accounts', async () => {
    const c = client();
    const acc = await c.getAccount(aliceAta.toBase58());
    expect(acc?.owner).toBe(TOKEN_PROGRAM_ID.toBase58());
    expect(acc?.slot).toBeGreaterThan(0);
    expect(await c.getAccount(Keypair.generate().publicKey.toBase58())).toBeNull();
    const [a, missing] = await c.getMultipleAccounts([alice.publicKey.toBase58(), Keypair.generate().publicKey.toBase58()]);
    expect(a?.lamports).toBe(1_000_000_000n);
    expect(missing).toBeNull();
    const toks = await c.getTokenAccountsByOwner(alice.publicKey.toBase58(), { mint: mint.toBase58() });
    expect(toks).toEqual([expect.objectContaining({ address: aliceAta.toBase58(), amount: 7_000_000n })]);
    const pga = await c.getProgramAccounts(TOKEN_PROGRAM_ID.toBase58(), [
      { dataSize: 165 },
      { memcmp: { offset: 32, bytes: alice.publicKey.toBase58() } },
    ]);
    expect(pga.map((p) => p.address)).toEqual([aliceAta.toBase58()]);
    expect(await c.getMinimumBalanceForRentExemption(165)).toBe(2_039_280n);
  });

  it('sends, notifies, reports status and history', async () => {
    const c = client();
    const { blockhash } = await c.getLatestBlockhash();
    expect(await c.isBlockhashValid(blockhash)).toBe(true);
    const raw = signedTx(blockhash, alice, [createTransferInstruction(aliceAta, bobAta, alice.publicKey, 2_000_000n)]);
    const sim = await c.simulateTransaction(raw);
    expect(sim.err).toBeNull();
    const signature = await c.sendRawTransaction(raw);
    const status = await new Promise((resolve) => c.onSignature(signature, resolve));
    expect(status).toMatchObject({ err: null });
    const [st] = await c.getSignatureStatuses([signature]);
    expect(st?.err).toBeNull();
    const tx = await c.getTransaction(signature);
    expect(tx?.fee).toBe(5000);
    expect(tx?.signers).toEqual([alice.publicKey.toBase58()]);
    expect(tx?.tokenBalances).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ account: bobAta.toBase58(), pre: 1n, post: 2_000_001n }),
        expect.objectContaining({ account: aliceAta.toBase58(), pre: 7_000_000n, post: 5_000_000n }),
      ]),
    );
  });

  it('maps failures to ChainError codes', async () => {
    const c = client();
    const { blockhash } = await c.getLatestBlockhash();
    const tooMuch = signedTx(blockhash, alice, [createTransferInstruction(aliceAta, bobAta, alice.publicKey, 10n ** 12n)]);
    const e1 = await c.sendRawTransaction(tooMuch).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ChainError);
    expect(e1).toMatchObject({ code: 'PROGRAM_ERROR', retryable: false, detail: { err: { InstructionError: [0, { Custom: 1 }] } } });
    const bad = signedTx(blockhash, alice, [createTransferInstruction(aliceAta, bobAta, alice.publicKey, 1n)]);
    bad[5] = bad[5]! ^ 1;
    await expect(c.sendRawTransaction(bad)).rejects.toMatchObject({ code: 'SIGNATURE_VERIFICATION_FAILED' });
    const stale = signedTx(Keypair.generate().publicKey.toBase58(), alice, [
      createTransferInstruction(aliceAta, bobAta, alice.publicKey, 1n),
    ]);
    await expect(c.sendRawTransaction(stale)).rejects.toMatchObject({ code: 'BLOCKHASH_NOT_FOUND', retryable: true });
  });

  it('filters program subscriptions on the server (dataSize, memcmp), as programSubscribe does', async () => {
    const c = client();
    const usdc = mint.toBase58();
    const tokenAccounts: number[] = [];
    const mintAccounts: number[] = [];
    const offA = c.onProgramAccountChange(TOKEN_PROGRAM_ID.toBase58(), (a) => tokenAccounts.push(a.data.length), [
      { dataSize: 165 },
      { memcmp: { offset: 0, bytes: usdc } },
    ]);
    const offB = c.onProgramAccountChange(TOKEN_PROGRAM_ID.toBase58(), (a) => mintAccounts.push(a.data.length), [{ dataSize: 82 }]);
    try {
      // Each mint-to changes the mint (82 bytes) and a token account (165 bytes). Mint until both
      // subscriptions were notified, then once more: every notification of the earlier
      // transactions has arrived once the later one's has (one socket, in order).
      const until = async (done: () => boolean) => {
        for (let i = 0; i < 200 && !done(); i++) {
          await chain.ledger!.mintUsdc(bob.publicKey, 1n);
          await new Promise((r) => setTimeout(r, 25));
        }
      };
      await until(() => tokenAccounts.length > 0 && mintAccounts.length > 0);
      const [a, b] = [tokenAccounts.length, mintAccounts.length];
      await until(() => tokenAccounts.length > a && mintAccounts.length > b);
      expect(tokenAccounts.length).toBeGreaterThan(a);
      expect(new Set(tokenAccounts)).toEqual(new Set([165]));
      expect(new Set(mintAccounts)).toEqual(new Set([82]));
    } finally {
      offA();
      offB();
    }
  });

  it('streams slots and account changes', async () => {
    const c = client();
    const slot = await new Promise<number>((resolve) => {
      const off = c.onSlot((s) => {
        off();
        resolve(s);
      });
    });
    expect(slot).toBeGreaterThan(0);
    const before = (await c.getAccount(bob.publicKey.toBase58()))?.lamports ?? 0n;
    let notified: bigint | undefined;
    const changed = new Promise<bigint>((resolve) => {
      const off = c.onAccountChange(bob.publicKey.toBase58(), (a) => {
        off();
        notified = a.lamports;
        resolve(a.lamports);
      });
    });
    // The port exposes no subscription ack, so instead of sleeping until the subscription reaches
    // the server, change the account until a notification arrives: it carries the state after one
    // of the airdrops (a subscription that never works times the test out).
    let airdrops = 0n;
    while (notified === undefined && airdrops < 200n) {
      await chain.ledger!.airdrop(bob.publicKey, 5_000_000n);
      airdrops++;
      await Promise.race([changed, new Promise((r) => setTimeout(r, 50))]);
    }
    const lamports = await changed;
    expect((lamports - before) % 5_000_000n).toBe(0n);
    expect(lamports > before && lamports <= before + airdrops * 5_000_000n).toBe(true);
  });
});
