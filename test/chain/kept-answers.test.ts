/**
 * Answers kept under the in-process ledger's account write version (src/chain/kept-answers.ts):
 * made once while the version stands, made again after any account write, never kept when
 * making throws, and never kept at all for a remote cluster (no version).
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import { EmbeddedLedger } from '@pmx/local-cluster';
import { EmbeddedChainClient } from '../../src/chain/adapters/embedded.adapter.js';
import { RpcChainClient } from '../../src/chain/adapters/rpc.adapter.js';
import { keptUnderChainVersion } from '../../src/chain/kept-answers.js';
import { keptChainAnswer } from '../../src/services/family-b/chain-answer.service.js';

let ledger: EmbeddedLedger;
let client: EmbeddedChainClient;
beforeAll(async () => {
  ledger = await EmbeddedLedger.open({ slotMs: 60_000 }); // no slot tick during a test
  client = new EmbeddedChainClient(ledger);
});
afterAll(async () => ledger?.close());

/** A `make` that reads the wallet's lamports from the chain and counts its calls. */
function balanceOf(wallet: Keypair) {
  const made = { count: 0 };
  const make = async () => {
    made.count++;
    return String((await client.getAccount(wallet.publicKey.toBase58()))?.lamports ?? 0n);
  };
  return { made, make };
}

describe('answers kept under the account write version', () => {
  it('are made once while no account is written, and again after a write', async () => {
    const wallet = Keypair.generate();
    const owner = {};
    const { made, make } = balanceOf(wallet);
    expect(await keptChainAnswer(client, owner, 'k', make)).toBe('0');
    expect(await keptChainAnswer(client, owner, 'k', make)).toBe('0');
    expect(made.count).toBe(1);
    await ledger.airdrop(wallet.publicKey, 1_000_000_000n);
    expect(await keptChainAnswer(client, owner, 'k', make)).toBe('1000000000');
    expect(made.count).toBe(2);
  });

  it('keep each key and owner apart', async () => {
    const a = {};
    const b = {};
    expect(await keptChainAnswer(client, a, 'x', async () => 'a-x')).toBe('a-x');
    expect(await keptChainAnswer(client, a, 'y', async () => 'a-y')).toBe('a-y');
    expect(await keptChainAnswer(client, b, 'x', async () => 'b-x')).toBe('b-x');
    expect(await keptChainAnswer(client, a, 'x', async () => 'other')).toBe('a-x');
  });

  it('a write while an answer is being made drops it at the next call', async () => {
    const wallet = Keypair.generate();
    const owner = {};
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = keptChainAnswer(client, owner, 'k', async () => {
      const read = String((await client.getAccount(wallet.publicKey.toBase58()))?.lamports ?? 0n);
      await gate; // the airdrop lands before this value is filed
      return read;
    });
    await ledger.airdrop(wallet.publicKey, 2_000_000_000n);
    release();
    expect(await slow).toBe('0');
    expect(await keptChainAnswer(client, owner, 'k', balanceOf(wallet).make)).toBe('2000000000');
  });

  it('a make that throws keeps nothing', async () => {
    const owner = {};
    await expect(keptChainAnswer(client, owner, 'k', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await keptChainAnswer(client, owner, 'k', async () => 'made')).toBe('made');
  });

  it('a remote cluster has no version: nothing is kept', async () => {
    const rpc = new RpcChainClient({ rpcUrl: 'http://127.0.0.1:1', logger: pino({ level: 'silent' }) });
    try {
      expect(keptUnderChainVersion(rpc, {})).toBeUndefined();
      expect(await keptChainAnswer(rpc, {}, 'k', async () => 'made')).toBeUndefined();
    } finally {
      await rpc.close();
    }
  });
});
