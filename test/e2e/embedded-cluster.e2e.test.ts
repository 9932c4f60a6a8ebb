// End to end: the embedded cluster in this process, an ordinary web3.js/spl-token client in
// another, talking JSON-RPC + PubSub over 127.0.0.1 as they would to mainnet.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { Keypair } from '@solana/web3.js';
import { createChain, type Chain } from '../../src/chain/create-chain.js';
import { faucet } from '@pmx/local-cluster';

const fixture = fileURLToPath(new URL('./fixtures/embedded-cluster-client.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

describe('embedded cluster end to end (separate client process)', () => {
  let chain: Chain;
  beforeAll(async () => {
    // 10 ms slots: a blockhash expires in ~1.5 s, so the client can watch one go stale.
    chain = await createChain({ chain: 'embedded', ledgerRpcPort: 0, logger: pino({ level: 'silent' }), slotMs: 10 });
  });
  afterAll(async () => chain.close());

  it('transfers USDC, confirms, reads it back, and gets real rejections that change nothing', async () => {
    const wallet = Keypair.generate();
    await faucet(chain.ledger!, { wallet: wallet.publicKey.toBase58(), lamports: 1_000_000_000n, usdcRaw: 25_000_000n });
    const env = {
      ...process.env,
      RPC_URL: chain.rpcUrl,
      USDC_MINT: chain.ledger!.bootstrapInfo.usdcMint,
      PAYER_SECRET: JSON.stringify(Array.from(wallet.secretKey)),
    };
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(tsx, [fixture], { env, timeout: 45_000 }, (err, out, errOut) =>
        err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out),
      );
    });
    const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r.start).toMatchObject({ sol: 1_000_000_000, alice: '25000000', bob: 'none' });
    expect(r.transfer.confirmErr).toBeNull();
    expect(r.transfer.instruction).toBe('transferChecked');
    expect(r.transfer.fee).toBe(5000);
    expect(r.transfer.post).toEqual(
      expect.arrayContaining([
        { owner: wallet.publicKey.toBase58(), amount: '23500000', ui: '23.5' },
        expect.objectContaining({ amount: '1500000', ui: '1.5' }),
      ]),
    );
    expect(r.afterTransfer).toMatchObject({ alice: '23500000', bob: '1500000' });
    expect(r.wrongSignature.message).toMatch(/signature verification failure/i);
    expect(r.staleBlockhash.message).toMatch(/Transaction simulation failed: Blockhash not found/);
    expect(r.insufficientFunds.message).toMatch(/custom program error: 0x1/);
    expect(r.insufficientFunds.logs?.join('\n')).toMatch(/Error: insufficient funds/);
    expect(r.end).toEqual(r.afterTransfer);
    // The server side agrees: the transfer is recorded, the rejected ones are not.
    expect(chain.ledger!.getTransaction(r.transfer.signature)?.err).toBeNull();
  });
});
