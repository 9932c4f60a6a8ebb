/**
 * Paid market creation (POST /v2/markets, x402). Step 1 records the market as `pending` with a
 * payment deadline (FAMILY_A_CREATION_WINDOW_SEC) and answers 402: the creation fee in USDC (and
 * SOL) to the Family A platform wallet, the option wallets, marketId and slug. Step 2 (same body
 * plus `marketId`, and X-PAYMENT) verifies the USDC fee on chain, then records the payment, the
 * `creating` status and the setup intent in one transaction; the market turns `live` once its
 * mints and accounts exist: 201 with its details.
 *
 * The fee's USDC lands in the platform wallet, the liquidity reserve that tops up payouts beyond
 * what a market's buyers paid. Both parts of the fee (USDC and SOL) are paid in ONE transaction,
 * whose signature is the X-PAYMENT txHash; both are verified from its balance deltas.
 */
import { randomUUID } from 'node:crypto';
import { findMarketById, findPendingMarket, setMarketStatus } from '../../../db/repositories/family-a-markets.repository.js';
import { findPaymentBySignature, insertPayment } from '../../../db/repositories/family-a-trades.repository.js';
import { DomainError } from '../../domain/errors.js';
import { rawToHuman } from '../../domain/family-a/money.js';
import { decodePaymentHeader } from '../../domain/family-a/payment-payload.js';
import { recordOutboundIntent } from '../outbound/outbound-intents.js';
import { PURPOSES, type SetupParams } from './family-a.builders.js';
import type { FamilyADeps } from './family-a.deps.js';
import { finishSetup, recordMarket } from './market-admin.service.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { assertNetwork, assertWallet, fetchLandedTransfer, paymentFailed, requireLamports, requireTransfer } from './x402-payment.verifier.js';
import { alreadyProcessed } from './payment-status.service.js';

export interface CreateBody {
  name: string;
  description: string;
  end_date: string;
  options?: string[];
  creator_wallet: string;
  initial_liquidity?: number;
  image_urls?: { market?: string; option1?: string; option2?: string };
  tags?: string[];
  category?: string;
  marketId?: string;
}

const LABEL = 'Payment verification failed';

function requirements(deps: FamilyADeps, m: { id: string; slug: string; yes_wallet: string | null; no_wallet: string | null; payment_deadline: string | null }) {
  const payTo = deps.keys.platform().publicKey.toBase58();
  const usdc = deps.settings.creationFeeUsdcRaw;
  const lamports = deps.settings.creationFeeLamports;
  return new DomainError('payment_required', 'PAYMENT_REQUIRED', `Market creation requires ${rawToHuman(usdc)} USDC and ${Number(lamports) / 1e9} SOL to ${payTo}`, {
    payment: {
      x402Version: 1,
      accepts: [
        { network: deps.settings.network, asset: deps.usdcMint, amount: usdc.toString(), payTo },
        { network: deps.settings.network, asset: 'SOL', amount: lamports.toString(), payTo },
      ],
      payTo, amountUsdc: rawToHuman(usdc), amountSol: Number(lamports) / 1e9, windowSeconds: deps.settings.creationWindowSec, expiresAt: m.payment_deadline,
    },
    marketId: m.id, slug: m.slug, optionWallets: { Yes: m.yes_wallet, No: m.no_wallet },
  });
}

export async function createStep1(deps: FamilyADeps, body: CreateBody): Promise<never> {
  const creator = assertWallet(body.creator_wallet, 'creator_wallet');
  if (body.options && body.options.length !== 2) throw new DomainError('invalid', 'VALIDATION_ERROR', 'options must have exactly 2 entries');
  const images = [body.image_urls?.market, body.image_urls?.option1, body.image_urls?.option2].filter((u): u is string => typeof u === 'string');
  const { id } = await recordMarket(deps, {
    name: body.name, description: body.description, endDate: body.end_date, tags: body.tags, category: body.category, imageUrls: images, creator,
    yesTicker: body.options?.[0], noTicker: body.options?.[1], // options are the tickers: first YES, second NO
  }, 'pending');
  throw requirements(deps, (await findMarketById(deps.db, id))!);
}

export async function createStep2(deps: FamilyADeps, body: CreateBody, header: string) {
  const payload = decodePaymentHeader(header, { quote: false });
  assertWallet(payload.payer, 'X-PAYMENT payer'); // a malformed payer is a bad request (400), not a failed payment (402)
  assertNetwork(deps, payload.network);
  const creator = assertWallet(body.creator_wallet, 'creator_wallet');
  const m = body.marketId ? await findMarketById(deps.db, body.marketId) : await findPendingMarket(deps.db, creator, body.name);
  if (!m || m.creator !== creator) throw new DomainError('not_found', 'MARKET_NOT_FOUND', 'No pending market of this creator; repeat step 1 first');
  if (m.status !== 'pending') throw new DomainError('conflict', 'ALREADY_PAID', `Market ${m.slug} is ${m.status}; its fee was already paid`, { marketSlug: m.slug });
  if (payload.payer !== creator) throw paymentFailed(LABEL, `payer mismatch: payload payer ${payload.payer} is not creator_wallet ${creator}`);
  if (await findPaymentBySignature(deps.db, payload.txHash)) throw alreadyProcessed(payload.txHash);
  const landed = await fetchLandedTransfer(deps, payload.txHash, LABEL);
  if ((landed.blockTimeMs ?? Date.now()) > Date.parse(m.payment_deadline ?? '') + 999) throw requirementsExpired(deps, m);
  const fee = BigInt(m.creation_fee_usdc_raw ?? deps.settings.creationFeeUsdcRaw);
  const platform = deps.keys.platform().publicKey.toBase58();
  requireTransfer(landed, { mint: deps.usdcMint, recipientOwner: platform, payer: creator, minAmount: fee }, LABEL);
  const lamports = BigInt(m.creation_fee_lamports ?? deps.settings.creationFeeLamports);
  if (lamports > 0n) requireLamports(landed, { recipient: platform, payer: creator, minLamports: lamports }, LABEL);
  let outboundId: string;
  try {
    outboundId = await deps.db.transaction().execute(async (trx) => {
      if (!(await setMarketStatus(trx, m.id, ['pending'], 'creating', new Date().toISOString()))) {
        throw new DomainError('conflict', 'ALREADY_PAID', `Market ${m.slug} was paid concurrently`);
      }
      const params: SetupParams = { marketId: m.id };
      const id = await recordOutboundIntent(trx, { idempotencyKey: `a-setup-${m.id}`, purpose: PURPOSES.setup, params });
      await insertPayment(trx, {
        id: randomUUID(), signature: payload.txHash, kind: 'create', market_id: m.id, wallet: creator, side: null, paid_raw: fee,
        deliver_raw: 0n, quote_id: null, outbound_id: id, created_at: new Date().toISOString(),
      });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyProcessed(payload.txHash);
    throw error;
  }
  return finishSetup(deps, m.id, outboundId);
}

function requirementsExpired(deps: FamilyADeps, m: { slug: string }): DomainError {
  return paymentFailed(LABEL, `the payment landed after the ${deps.settings.creationWindowSec} s payment window of ${m.slug} closed; create the market again`);
}
