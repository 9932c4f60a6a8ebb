// Fault injection on the embedded ledger, and the rpc adapter's retry/backoff against a real
// local HTTP front that rate-limits and fails before forwarding to the embedded cluster.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Keypair, SystemProgram } from '@solana/web3.js';
import { createChain, type Chain } from '../../src/chain/create-chain.js';
import { RpcChainClient } from '../../src/chain/adapters/rpc.adapter.js';
import { faucet, FaucetError } from '@pmx/local-cluster';
import { signedTx } from '@pmx/local-cluster/testing';

let chain: Chain;
const alice = Keypair.generate();
beforeAll(async () => {
  chain = await createChain({ chain: 'embedded', ledgerRpcPort: 0, logger: pino({ level: 'silent' }) });
  await chain.ledger!.airdrop(alice.publicKey, 1_000_000_000n);
});
afterAll(async () => chain.close());

const transfer = (lamports: number) =>
  signedTx(chain.ledger!.getLatestBlockhash().blockhash, alice, [
    SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: Keypair.generate().publicKey, lamports }),
  ]);

describe('fault injection', () => {
  it('fails the next N sends with a retryable error', async () => {
    const ledger = chain.ledger!;
    ledger.faults.set({ failNextSends: 2 });
    await expect(ledger.sendRawTransaction(transfer(1_000_000))).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(chain.client.sendRawTransaction(transfer(1_000_001))).rejects.toMatchObject({ code: 'NODE_UNAVAILABLE', retryable: true });
    expect((await ledger.sendRawTransaction(transfer(1_000_002))).err).toBeNull();
  });

  it('drops transactions: a signature comes back, nothing lands', async () => {
    const ledger = chain.ledger!;
    ledger.faults.set({ dropRate: 1 });
    const before = ledger.getBalance(alice.publicKey);
    const { signature } = await ledger.sendRawTransaction(transfer(1_000_003));
    expect(ledger.getSignatureStatus(signature)).toBeNull();
    expect(ledger.getBalance(alice.publicKey)).toBe(before);
    ledger.faults.reset();
  });

  it('delays confirmation', async () => {
    const ledger = chain.ledger!;
    ledger.faults.set({ confirmDelayMs: 150 });
    const { signature } = await ledger.sendRawTransaction(transfer(1_000_004));
    expect(ledger.getSignatureStatus(signature)).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(ledger.getSignatureStatus(signature)?.err).toBeNull();
    ledger.faults.reset();
  });

  it('expires blockhashes early', async () => {
    const ledger = chain.ledger!;
    ledger.faults.set({ expireBlockhashesEarly: true });
    const raw = transfer(1_000_005);
    ledger.advanceSlots(3);
    await expect(ledger.sendRawTransaction(raw)).rejects.toMatchObject({ kind: 'preflight', err: 'BlockhashNotFound' });
    ledger.faults.reset();
  });
});

describe('faucet bounds', () => {
  it('refuses amounts over the limits and bad addresses', async () => {
    const ledger = chain.ledger!;
    const wallet = Keypair.generate().publicKey.toBase58();
    await expect(faucet(ledger, { wallet, usdcRaw: 10n ** 12n + 1n })).rejects.toBeInstanceOf(FaucetError);
    await expect(faucet(ledger, { wallet, lamports: 101n * 10n ** 9n })).rejects.toMatchObject({ code: 'AMOUNT_TOO_LARGE' });
    await expect(faucet(ledger, { wallet: 'nope', lamports: 1n })).rejects.toMatchObject({ code: 'INVALID_ADDRESS' });
    const res = await faucet(ledger, { wallet, usdcRaw: 10n ** 12n, lamports: 10n ** 9n });
    expect(res.signatures).toHaveLength(2);
    expect(ledger.getTokenAccountsByOwner(wallet)[0]?.token.amount).toBe(10n ** 12n);
  });
});

describe('rpc adapter retry', () => {
  let front: Server;
  let url: string;
  let failures = 0;
  beforeAll(async () => {
    front = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (failures > 0) {
          res.writeHead(failures-- % 2 === 0 ? 429 : 503).end('busy');
          return;
        }
        void fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) }).then(
          async (r) => res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text()),
        );
      });
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((r) => front.close(() => r())));

  it('retries 429/503 with backoff, then succeeds', async () => {
    const client = new RpcChainClient({
      rpcUrl: url,
      wsUrl: chain.rpcUrl.replace('http', 'ws'),
      retry: { attempts: 4, baseDelayMs: 10, maxDelayMs: 50 },
    });
    failures = 3;
    expect(await client.getSlot()).toBeGreaterThan(0);
    failures = 3;
    expect(await client.sendRawTransaction(transfer(1_000_006))).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
  });

  it('gives up with a retryable ChainError when the node stays down', async () => {
    const client = new RpcChainClient({ rpcUrl: url, retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 } });
    failures = 10;
    await expect(client.getSlot()).rejects.toMatchObject({ retryable: true });
    failures = 0;
    const down = new RpcChainClient({ rpcUrl: 'http://127.0.0.1:1', retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 } });
    await expect(down.getBlockHeight()).rejects.toMatchObject({ code: 'NODE_UNAVAILABLE', retryable: true });
  });
});
