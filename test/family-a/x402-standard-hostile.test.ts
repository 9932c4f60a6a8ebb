// Hostile standard x402 payments: each is refused with 402 and a failed PAYMENT-RESPONSE, nothing
// is recorded or sent, and the fee payer's balance does not move.
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { AddressLookupTableAccount, ComputeBudgetProgram, Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { decodePaymentResponseHeader } from '@x402/core/http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, createMarket, tokenBalance, type Harness } from './family-a.harness.js';
import { memoInstruction, paymentSignature, requirementOf, transferChecked, type Build } from './x402-standard.payloads.js';

let h: Harness;
let market: Awaited<ReturnType<typeof createMarket>>;
let other: Awaited<ReturnType<typeof createMarket>>;
beforeAll(async () => {
  h = await createHarness();
  [market, other] = [await createMarket(h), await createMarket(h)];
});
afterAll(async () => {
  await h?.close();
});

async function quote(slug: string, wallet: string, amount: number) {
  const res = await h.t.app.inject({ method: 'POST', url: `/v2/markets/${slug}/trade/buy`, payload: { wallet, amount, side: 'YES' } });
  expect(res.statusCode).toBe(402);
  return requirementOf(res.headers['payment-required'] as string).accepted;
}

async function buyer() {
  const payer = Keypair.generate();
  await h.ledger.mintUsdc(payer.publicKey, 50_000_000n);
  // An existing YES account: no account fee, so the amounts below are the bought amounts.
  return payer;
}

async function lamports(address: string): Promise<bigint> {
  return (await h.client.getAccount(address))?.lamports ?? 0n;
}

async function expectRefused(payer: Keypair, slug: string, amount: number, header: string, reason: RegExp) {
  const wallet = payer.publicKey.toBase58();
  const feePayer = (await quote(slug, wallet, amount)).extra!.feePayer as string;
  const [feeBefore, usdcBefore] = [await lamports(feePayer), await tokenBalance(h, wallet, h.usdcMint)];
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/v2/markets/${slug}/trade/buy`,
    headers: { 'payment-signature': header },
    payload: { wallet, amount, side: 'YES' },
  });
  expect(res.statusCode, res.body).toBe(402);
  const response = decodePaymentResponseHeader(res.headers['payment-response'] as string);
  expect(response).toMatchObject({ success: false, transaction: '' });
  expect(response.errorReason).toMatch(reason);
  expect(res.headers['payment-required'], 'a refused payment still offers a fresh quote').toBeTruthy();
  expect(await h.ctx.db.selectFrom('family_a_x402_payments').select('signature').execute()).toEqual([]);
  expect(await lamports(feePayer)).toBe(feeBefore);
  expect(await tokenBalance(h, wallet, h.usdcMint)).toBe(usdcBefore);
}

async function hostile(amount: number, change: Omit<Build, 'payer' | 'accepted'>, reason: RegExp, slug = market.slug) {
  const payer = await buyer();
  const accepted = await quote(slug, payer.publicKey.toBase58(), amount);
  await expectRefused(payer, slug, amount, paymentSignature({ payer, accepted, ...change }), reason);
}

describe('hostile standard payments', () => {
  // Bytes 1..64 are the fee payer's signature slot, which the platform overwrites when it co-signs:
  // changing them changes nothing (the same transaction id), so they are left out here.
  it('any other byte of a valid payment changed: below 500, nothing recorded or sent', async () => {
    const payer = await buyer();
    const wallet = payer.publicKey.toBase58();
    const accepted = await quote(market.slug, wallet, 1);
    const valid = JSON.parse(Buffer.from(paymentSignature({ payer, accepted }), 'base64').toString());
    const bytes = Buffer.from(valid.payload.transaction, 'base64');
    const feePayer = accepted.extra!.feePayer as string;
    const before = await lamports(feePayer);
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(0), fc.integer({ min: 65, max: bytes.length - 1 })),
        fc.integer({ min: 1, max: 255 }),
        async (at, xor) => {
          const mutated = Buffer.from(bytes);
          mutated[at] = mutated[at]! ^ xor;
          const header = Buffer.from(JSON.stringify({ ...valid, payload: { transaction: mutated.toString('base64') } })).toString('base64');
          const res = await h.t.app.inject({
            method: 'POST',
            url: `/v2/markets/${market.slug}/trade/buy`,
            headers: { 'payment-signature': header },
            payload: { wallet, amount: 1, side: 'YES' },
          });
          statuses.add(res.statusCode);
          expect(res.statusCode, res.body).toBeLessThan(500);
          expect(res.statusCode).not.toBe(200);
        },
      ),
      { numRuns: 150 },
    );
    expect([...statuses].every((s) => s === 400 || s === 402)).toBe(true);
    expect(await h.ctx.db.selectFrom('family_a_x402_payments').select('signature').execute()).toEqual([]);
    expect(await lamports(feePayer)).toBe(before);
  });

  it('the fee payer named in an instruction', () =>
    hostile(1, { instructions: (ix, p) => [...ix.slice(0, 3), memoInstruction(p.memo, [p.feePayer])] }, /fee_payer_in_instruction/));

  it('a second transfer, from the fee payer', () =>
    hostile(
      1,
      {
        instructions: (ix, p) => [
          ...ix,
          SystemProgram.transfer({ fromPubkey: p.feePayer, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }),
        ],
      },
      /fee_payer_in_instruction/,
    ));

  it('a transfer to the wrong account', () =>
    hostile(
      1,
      {
        instructions: (ix, p) => {
          const thief = Keypair.generate().publicKey;
          return [ix[0]!, ix[1]!, transferChecked(p, { destination: getAssociatedTokenAddressSync(p.mint, thief) }), ix[3]!];
        },
      },
      /recipient_mismatch/,
    ));

  it('two matching transfers', () =>
    hostile(1, { instructions: (ix) => [ix[0]!, ix[1]!, ix[2]!, ix[2]!, ix[3]!] }, /unknown_fourth_instruction/));

  it('an extra required signer', () => {
    const extra = Keypair.generate();
    return hostile(
      1,
      {
        extraSigners: [extra],
        instructions: (ix, p) => [
          ...ix.slice(0, 3),
          { ...memoInstruction(p.memo), keys: [{ pubkey: extra.publicKey, isSigner: true, isWritable: false }] },
        ],
      },
      /excessive_signers/,
    );
  });

  it('a compute-unit price above the cap', () =>
    hostile(
      1,
      { instructions: (ix) => [ix[0]!, ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 50_001 }), ix[2]!, ix[3]!] },
      /compute_price_instruction_too_high/,
    ));

  it('a compute-unit limit above the cap', () =>
    hostile(
      1,
      { instructions: (ix) => [ComputeBudgetProgram.setComputeUnitLimit({ units: 50_001 }), ...ix.slice(1)] },
      /compute_limit_instruction_too_high/,
    ));

  it('a lookup table that hides an account', () =>
    hostile(
      1,
      {
        lookupTables: [
          new AddressLookupTableAccount({
            key: Keypair.generate().publicKey,
            state: {
              deactivationSlot: 2n ** 64n - 1n,
              lastExtendedSlot: 0,
              lastExtendedSlotStartIndex: 0,
              addresses: [
                getAssociatedTokenAddressSync(new PublicKey(h.usdcMint), new PublicKey(market.metadata.option_wallets.Yes), true),
              ],
            },
          }),
        ],
      },
      /alt_resolution_not_available/,
    ));

  it('a memo for another quote', async () => {
    const payer = await buyer();
    const wallet = payer.publicKey.toBase58();
    const accepted = await quote(market.slug, wallet, 1);
    const another = await quote(other.slug, wallet, 1);
    const header = paymentSignature({ payer, accepted: { ...accepted, extra: { ...accepted.extra, memo: another.extra!.memo } } });
    await expectRefused(payer, market.slug, 1, header, /memo_mismatch/);
  });

  it("a transaction for another market's amount", async () => {
    const payer = await buyer();
    const wallet = payer.publicKey.toBase58();
    const accepted = await quote(market.slug, wallet, 2);
    const header = paymentSignature({
      payer,
      accepted,
      instructions: (ix, p) => [ix[0]!, ix[1]!, transferChecked(p, { amount: 1_000_000n }), ix[3]!],
    });
    await expectRefused(payer, market.slug, 2, header, /amount_mismatch/);
  });
});
