/**
 * Winning tokens held outside the wallet's associated token account (issue 10 item 9): positions
 * say redeemable, and redeem / redeem-all build a transaction that moves them into the associated
 * account and redeems all of them, which lands; afterwards nothing is offered again.
 */
import {
  createInitializeAccount3Instruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buy,
  createMarket,
  fundedWallet,
  get,
  openHarness,
  post,
  signAndSend,
  tokenBalance,
  USDC,
  waitFor,
  write,
  type BHarness,
} from './family-b.harness.js';

let h: BHarness;
let creator: Keypair, alice: Keypair;
let id: number;
let yesMint: PublicKey;
const w = (k: Keypair) => k.publicKey.toBase58();

beforeAll(async () => {
  h = await openHarness();
  let bob: Keypair;
  [creator, alice, bob] = await Promise.all([fundedWallet(h), fundedWallet(h), fundedWallet(h)]);
  id = await createMarket(h, creator, { resolutionTime: Math.floor(Date.now() / 1000) + 3600 });
  yesMint = new PublicKey(
    await waitFor('market', async () => (await get(h, `/v2/markets/${id}`)).json().data?.yesMint as string | undefined),
  );
  await buy(h, id, alice, 'YES', 10 * USDC);
  await buy(h, id, bob, 'NO', 5 * USDC); // resolution needs holders on both sides
  // Move every YES token into a second token account that is not the associated one.
  const held = await tokenBalance(h, yesMint, alice.publicKey);
  const side = Keypair.generate();
  await h.ledger.sendInstructions(
    [
      SystemProgram.createAccount({
        fromPubkey: alice.publicKey,
        newAccountPubkey: side.publicKey,
        lamports: Number(h.ledger.minimumBalanceForRentExemption(ACCOUNT_SIZE)),
        space: ACCOUNT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeAccount3Instruction(side.publicKey, yesMint, alice.publicKey),
      createTransferInstruction(getAssociatedTokenAddressSync(yesMint, alice.publicKey, true), side.publicKey, alice.publicKey, held),
    ],
    [alice, side],
  );
  expect(await tokenBalance(h, yesMint, alice.publicKey)).toBe(0n); // nothing left in the associated account
  h.ledger.warpTime(3_700);
  await write(h, `/v2/markets/${id}/resolve`, { wallet: w(creator), winningSide: 'YES' }, creator);
});
afterAll(async () => h?.close());

describe('winning tokens outside the associated account', () => {
  it('positions say redeemable; redeem-all offers one transaction that lands and pays; then nothing', async () => {
    const position = await waitFor('redeemable position', async () => {
      const p = ((await get(h, `/v2/positions/${w(alice)}`)).json().data as Array<Record<string, unknown>>).find((x) => x.marketId === id);
      return p?.needsRedemption && p.marketStatus === 'resolved' ? p : undefined;
    });
    expect(position.hasWinningTokens).toBe(true);

    const single = (await post(h, `/v2/markets/${id}/redeem`, { wallet: w(alice), side: 'YES' })).json();
    expect(single.data?.tokenAmount).toBeGreaterThan(0); // not "alreadyRedeemed"

    const all = (await post(h, '/v2/redeem-all', { wallet: w(alice) })).json().data;
    expect(all.transactions).toHaveLength(1);
    const usdcBefore = await tokenBalance(h, h.usdcMint, alice.publicKey);
    await signAndSend(h, all.transactions[0].transaction, alice);
    expect(await tokenBalance(h, h.usdcMint, alice.publicKey)).toBe(usdcBefore + BigInt(single.data.tokenAmount)); // 1 USDC per winning token

    await waitFor('index caught up', async () => {
      const again = (await post(h, '/v2/redeem-all', { wallet: w(alice) })).json().data;
      return again.transactions.length === 0 ? again : undefined;
    });
    expect((await post(h, `/v2/markets/${id}/redeem`, { wallet: w(alice), side: 'YES' })).json()).toMatchObject({
      success: true,
      alreadyRedeemed: true,
    });
  });
});
