/**
 * GET /v2/config and the dev faucet against the real embedded cluster: the faucet mints real
 * USDC into the wallet's associated token account, refuses amounts over its bounds with a 400 in
 * Family B's envelope (changing nothing), and does not exist on a cluster without a ledger.
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainRoutes } from '../../src/api/routes/chain.routes.js';
import { embeddedDevFaucet } from '../../src/chain/dev-faucet.js';
import { createChain, type Chain } from '../../src/chain/create-chain.js';
import { createMarketProgramHandler } from '@pmx/local-cluster';
import { MARKET_PROGRAM_ID } from '@pmx/programs';
import type { ChainRuntime } from '../../src/chain/chain-runtime.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let chain: Chain;
let runtime: ChainRuntime;
let withLedger: TestApp;
let withoutLedger: TestApp;

beforeAll(async () => {
  chain = await createChain({
    chain: 'embedded',
    ledgerRpcPort: 0,
    programs: [createMarketProgramHandler()],
    logger: pino({ level: 'silent' }),
  });
  const ledger = chain.ledger!;
  const keys = ledger.platformKeypairs();
  runtime = {
    client: chain.client,
    cluster: chain.client.cluster,
    rpcUrl: chain.rpcUrl,
    usdcMint: new PublicKey(ledger.bootstrapInfo.usdcMint),
    wallets: { treasury: keys.treasury, exchangeOperator: keys.exchangeOperator, protocolFee: keys.protocolFee },
    programs: { market: MARKET_PROGRAM_ID },
    ledger,
    devFaucet: embeddedDevFaucet(ledger),
  };
  withLedger = await createTestApp({ routes: [async (app) => chainRoutes(app, { chain: runtime })] });
  const { ledger: _ledger, devFaucet: _faucet, ...rpcLike } = runtime;
  withoutLedger = await createTestApp({ routes: [async (app) => chainRoutes(app, { chain: rpcLike })] });
});

afterAll(async () => {
  await withLedger?.close();
  await withoutLedger?.close();
  await chain?.close();
});

describe('GET /v2/config', () => {
  it('describes the cluster, the USDC mint and the programs', async () => {
    const res = await withLedger.app.inject({ method: 'GET', url: '/v2/config' });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({
      cluster: 'embedded',
      rpcUrl: chain.rpcUrl,
      usdcMint: runtime.usdcMint.toBase58(),
      usdcDecimals: 6,
      programs: { market: MARKET_PROGRAM_ID.toBase58() },
      faucet: true,
      platformWallets: { treasury: runtime.wallets.treasury.publicKey.toBase58() },
    });
    // The treasury's secret key in none of its usual spellings (a byte list, base64, hex). Checking
    // for its first byte followed by a comma failed whenever that byte matched a number of the body.
    const secret = runtime.wallets.treasury.secretKey;
    const body = JSON.stringify(data);
    for (const spelling of [
      Array.from(secret.subarray(0, 8)).join(','),
      Buffer.from(secret).toString('base64').slice(0, 16),
      Buffer.from(secret).toString('hex').slice(0, 16),
    ]) {
      expect(body).not.toContain(spelling);
    }
  });
});

describe('POST /v2/dev/faucet', () => {
  it('mints USDC to the associated token account and airdrops SOL', async () => {
    const wallet = Keypair.generate().publicKey;
    const res = await withLedger.app.inject({
      method: 'POST',
      url: '/v2/dev/faucet',
      payload: { wallet: wallet.toBase58(), usdc: '2500000', sol: '1000000000' },
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.usdcSignature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(data.solSignature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(data.usdcSignature).not.toBe(data.solSignature);
    expect(chain.ledger!.getBalance(wallet)).toBe(1_000_000_000n);
    const ata = getAssociatedTokenAddressSync(runtime.usdcMint, wallet);
    expect(chain.ledger!.getTokenBalance(ata)).toBe(2_500_000n);
  });

  it.each<[Record<string, string>, string]>([
    [{ usdc: '1000000000001' }, 'over 1,000,000 USDC'],
    [{ sol: '100000000001' }, 'over 100 SOL'],
    [{}, 'nothing requested'],
    [{ usdc: '-5' }, 'a negative amount'],
    [{ usdc: '1.5' }, 'a fraction of a raw unit'],
  ])('refuses %j (%s) with 400 in the B envelope and mints nothing', async (amounts) => {
    const wallet = Keypair.generate().publicKey;
    const res = await withLedger.app.inject({ method: 'POST', url: '/v2/dev/faucet', payload: { wallet: wallet.toBase58(), ...amounts } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(typeof body.error).toBe('string');
    expect(chain.ledger!.getBalance(wallet)).toBe(0n);
    expect(chain.ledger!.getTokenBalance(getAssociatedTokenAddressSync(runtime.usdcMint, wallet))).toBe(0n);
  });

  it('refuses a malformed wallet', async () => {
    const res = await withLedger.app.inject({ method: 'POST', url: '/v2/dev/faucet', payload: { wallet: 'not-a-wallet', usdc: '1' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  });

  it('does not exist without an embedded ledger (a real cluster)', async () => {
    const res = await withoutLedger.app.inject({
      method: 'POST',
      url: '/v2/dev/faucet',
      payload: { wallet: Keypair.generate().publicKey.toBase58(), usdc: '1' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});
