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
 * whose signature is the X-PAYMENT txHash; both are verified from its balance deltas. More than
 * the fee is refunded; a refused payment (one part missing, short, too late, the market gone) is
 * refunded, or held while another pending creation of the creator could still take it.
 *
 * Unpaid creations (issue 8 item 6): a repeated identical request answers the same pending market
 * (its window renewed when it had closed) instead of reserving another slug; the sweep removes a
 * pending market FAMILY_A_PRESENT_GRACE_SEC after its window closed, releasing its slug.
 */
import { findMarketById, setMarketStatus, type MarketRow } from '../../../db/repositories/family-a-markets.repository.js';
import { findPendingMarket, listPendingCreations, renewPaymentDeadline } from '../../../db/repositories/family-a-creations.repository.js';
import { findPaymentBySignature } from '../../../db/repositories/family-a-trades.repository.js';
import { DomainError } from '../../domain/errors.js';
import { rawToHuman } from '../../domain/family-a/money.js';
import { decodePaymentHeader, type PaymentPayload } from '../../domain/family-a/payment-payload.js';
import { assertTickers } from '../../domain/family-a/side.js';
import { PURPOSES, type SetupParams } from './family-a.builders.js';
import type { FamilyADeps } from './family-a.deps.js';
import { honourPayment } from './honour-payment.js';
import { finishSetup, recordMarket } from './market-admin.service.js';
import { withRefusalAccounting } from './refusal-accounting.js';
import {
  assertNetwork,
  assertWallet,
  associatedAccount,
  fetchLandedTransfer,
  paymentFailed,
  requireLamports,
  requireTransfer,
  type LandedTransfer,
} from './x402-payment.verifier.js';
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

function requirements(
  deps: FamilyADeps,
  m: { id: string; slug: string; yes_wallet: string | null; no_wallet: string | null; payment_deadline: string | null },
) {
  const payTo = deps.keys.platform().publicKey.toBase58();
  const usdc = deps.settings.creationFeeUsdcRaw;
  const lamports = deps.settings.creationFeeLamports;
  return new DomainError(
    'payment_required',
    'PAYMENT_REQUIRED',
    `Market creation requires ${rawToHuman(usdc)} USDC and ${Number(lamports) / 1e9} SOL to ${payTo}`,
    {
      payment: {
        x402Version: 1,
        accepts: [
          { network: deps.settings.network, asset: deps.usdcMint, amount: usdc.toString(), payTo },
          { network: deps.settings.network, asset: 'SOL', amount: lamports.toString(), payTo },
        ],
        payTo,
        amountUsdc: rawToHuman(usdc),
        amountSol: Number(lamports) / 1e9,
        windowSeconds: deps.settings.creationWindowSec,
        expiresAt: m.payment_deadline,
      },
      marketId: m.id,
      slug: m.slug,
      optionWallets: { Yes: m.yes_wallet, No: m.no_wallet },
    },
  );
}

function imagesOf(body: CreateBody): string[] {
  return [body.image_urls?.market, body.image_urls?.option1, body.image_urls?.option2].filter((u): u is string => typeof u === 'string');
}

/** Same request = same creator, name, description, end date, tickers, tags, category and images. */
function sameRequest(m: MarketRow, body: CreateBody): boolean {
  const end = Date.parse(body.end_date);
  const tickers = assertTickers(body.options?.[0] ?? 'YES', body.options?.[1] ?? 'NO');
  return (
    m.name === body.name &&
    m.description === body.description &&
    m.end_date !== null &&
    Date.parse(m.end_date) === end &&
    m.yes_ticker === tickers.yes &&
    m.no_ticker === tickers.no &&
    m.category === (body.category ?? '') &&
    m.tags === JSON.stringify(body.tags ?? []) &&
    m.image_urls === JSON.stringify(imagesOf(body))
  );
}

/** An identical pending creation of this creator, its window renewed if it had closed. */
async function samePending(deps: FamilyADeps, creator: string, body: CreateBody): Promise<MarketRow | undefined> {
  const same = (await listPendingCreations(deps.db, creator)).find((m) => sameRequest(m, body));
  if (!same) return undefined;
  if (Date.parse(same.payment_deadline ?? '') > Date.now()) return same;
  const deadline = new Date(Date.now() + deps.settings.creationWindowSec * 1000).toISOString();
  if (!(await renewPaymentDeadline(deps.db, same.id, deadline))) return undefined; // expired meanwhile: create anew
  return { ...same, payment_deadline: deadline };
}

export async function createStep1(deps: FamilyADeps, body: CreateBody): Promise<never> {
  const creator = assertWallet(body.creator_wallet, 'creator_wallet');
  if (body.options && body.options.length !== 2)
    throw new DomainError('invalid', 'VALIDATION_ERROR', 'options must have exactly 2 entries');
  const existing = await samePending(deps, creator, body);
  if (existing) throw requirements(deps, existing);
  const { id } = await recordMarket(
    deps,
    {
      name: body.name,
      description: body.description,
      endDate: body.end_date,
      tags: body.tags,
      category: body.category,
      imageUrls: imagesOf(body),
      creator,
      yesTicker: body.options?.[0],
      noTicker: body.options?.[1], // options are the tickers: first YES, second NO
    },
    'pending',
  );
  throw requirements(deps, (await findMarketById(deps.db, id))!);
}

export async function createStep2(deps: FamilyADeps, body: CreateBody, header: string) {
  const payload = decodePaymentHeader(header, { quote: false });
  assertWallet(payload.payer, 'X-PAYMENT payer'); // a malformed payer is a bad request (400), not a failed payment (402)
  assertNetwork(deps, payload.network);
  const creator = assertWallet(body.creator_wallet, 'creator_wallet');
  return withRefusalAccounting(deps, payload.txHash, (remember) => payCreation(deps, body, payload, creator, remember));
}

async function payCreation(
  deps: FamilyADeps,
  body: CreateBody,
  payload: PaymentPayload,
  creator: string,
  remember: (landed: LandedTransfer) => void,
) {
  const m = body.marketId ? await findMarketById(deps.db, body.marketId) : await findPendingMarket(deps.db, creator, body.name);
  if (!m || m.creator !== creator) {
    throw new DomainError(
      'not_found',
      'MARKET_NOT_FOUND',
      'No pending market of this creator (an unpaid creation is removed once its payment window and grace are over); repeat step 1',
    );
  }
  if (m.status !== 'pending')
    throw new DomainError('conflict', 'ALREADY_PAID', `Market ${m.slug} is ${m.status}; its fee was already paid`, { marketSlug: m.slug });
  if (payload.payer !== creator)
    throw paymentFailed(LABEL, `payer mismatch: payload payer ${payload.payer} is not creator_wallet ${creator}`);
  if (await findPaymentBySignature(deps.db, payload.txHash)) throw alreadyProcessed(payload.txHash);
  const landed = await fetchLandedTransfer(deps, payload.txHash, LABEL);
  remember(landed);
  if ((landed.blockTimeMs ?? Date.now()) > Date.parse(m.payment_deadline ?? '') + 999) throw requirementsExpired(deps, m);
  const fee = BigInt(m.creation_fee_usdc_raw ?? deps.settings.creationFeeUsdcRaw);
  const platform = deps.keys.platform().publicKey.toBase58();
  requireTransfer(landed, { mint: deps.usdcMint, recipientOwner: platform, payer: creator, minAmount: fee }, LABEL);
  const lamports = BigInt(m.creation_fee_lamports ?? deps.settings.creationFeeLamports);
  if (lamports > 0n) requireLamports(landed, { recipient: platform, payer: creator, minLamports: lamports }, LABEL);
  // Exactly the fee is honoured; whatever was paid beyond it is refunded.
  const honoured = [{ account: associatedAccount(deps.usdcMint, platform), amount: fee }];
  if (lamports > 0n) honoured.push({ account: platform, amount: lamports });
  const params: SetupParams = { marketId: m.id };
  const setup = await honourPayment(
    deps,
    {
      signature: payload.txHash,
      kind: 'create',
      market_id: m.id,
      wallet: creator,
      side: null,
      paid_raw: fee,
      deliver_raw: 0n,
      quote_id: null,
    },
    { idempotencyKey: `a-setup-${m.id}`, purpose: PURPOSES.setup, params },
    {
      landed,
      honoured,
      record: async (trx) => {
        if (!(await setMarketStatus(trx, m.id, ['pending'], 'creating', new Date().toISOString()))) {
          throw new DomainError('conflict', 'ALREADY_PAID', `Market ${m.slug} was paid concurrently or has expired`, {
            marketSlug: m.slug,
          });
        }
      },
    },
  );
  return finishSetup(deps, m.id, setup.id);
}

function requirementsExpired(deps: FamilyADeps, m: { slug: string }): DomainError {
  return paymentFailed(
    LABEL,
    `the payment landed after the ${deps.settings.creationWindowSec} s payment window of ${m.slug} closed; create the market again`,
  );
}
