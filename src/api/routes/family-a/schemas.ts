/**
 * TypeBox schemas of Family A bodies shared by its routes (OpenAPI documents them; success bodies
 * are serialised through them, so they list every field the services return).
 */
import { Type, type TSchema } from 'typebox';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const L = <T extends string>(v: T) => Type.Literal(v);
const Str = (description?: string) => Type.String(description ? { description } : {});

/** What became of one inbound transfer to a platform wallet (issue 8 item 2). */
export const TransferOutcome = Type.Object({
  txHash: Str('the transaction that carried the transfer'),
  index: Type.Integer({ description: "the credited account's index in the transaction (with txHash, the transfer's identity)" }),
  asset: Type.Union([Type.Literal('USDC'), Type.Literal('SOL'), Type.Literal('token')]),
  mint: Nullable(Str('the mint (null for SOL)')),
  amount: Nullable(Type.Number({ description: 'human units (null for a mint of unknown decimals)' })),
  amountRaw: Str('raw units (lamports for SOL)'),
  honouredAmount: Nullable(Type.Number({ description: 'the part a payment honoured' })),
  state: Type.Union([L('held'), L('honoured'), L('refunded'), L('credited'), L('claimed'), L('manual')], {
    description:
      "held: a quote (or pending creation) can still honour it until refundAfter, then it is refunded; honoured; refunded (see refund); credited: winning tokens counted by this wallet's claim; claimed: a credit a claim paid for; manual: an operator decides (no single sender)",
  }),
  reason: Str('why it was not (fully) honoured'),
  slug: Nullable(Str()),
  from: Nullable(Str("the sender's account the value left (refunds go back to it)")),
  sender: Nullable(Str("the sender's wallet")),
  to: Str('the platform account that received it'),
  refundAfter: Nullable(Type.String({ format: 'date-time' })),
  refund: Nullable(
    Type.Object({
      amount: Nullable(Type.Number()),
      status: Nullable(Type.Union([L('pending'), L('sent'), L('confirmed'), L('failed'), L('awaiting_funds')])),
      signature: Nullable(Str("the refund transaction's signature once built")),
      error: Nullable(Str()),
    }),
  ),
  recordedAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** `paymentOutcome` of a refused step 2: what became of the money the presented transaction moved. */
export const PaymentOutcome = Type.Object({
  txHash: Str(),
  lookup: Str('GET this path to follow the refund'),
  transfers: Type.Array(TransferOutcome),
});

export const DeliveryStatus = Type.Union([L('pending'), L('sent'), L('confirmed'), L('failed'), L('awaiting_funds')], {
  description:
    'of the platform transaction: confirmed, pending/sent when the wait ran out (it completes in the background), awaiting_funds when the platform wallets cannot cover it yet (paid once funded), failed',
});

const Open = { additionalProperties: true } as const;
/**
 * `error` of the envelope: Family A's {code, message}; a string (+ top-level `code`) when the path's
 * slug is an integer, which makes it a Family B path (docs/architecture.md, error envelopes).
 */
const ErrorField = (code: string) =>
  Type.Union([
    Type.Object({ code: Str(code), message: Str() }),
    Type.String({ description: 'Family B envelope (integer market id in the path)' }),
  ]);
const Num = (description?: string) => Type.Number(description ? { description } : {});

/** Family A's error envelope; extra top-level fields (marketSlug, marketStatus, claim…) pass through. */
export const ErrorA = Type.Object(
  {
    success: Type.Literal(false),
    error: ErrorField('stable machine code'),
    marketSlug: Type.Optional(Str()),
    paymentOutcome: Type.Optional(PaymentOutcome),
  },
  {
    ...Open,
    description: 'Family A error envelope. A refused payment carries paymentOutcome: what became of the money its transaction moved.',
  },
);

const Quote = {
  side: Str('YES or NO'),
  issuedAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  ttlMs: Type.Integer({ description: '120000' }),
};

/** 402 of buy: step 1 (PAYMENT_REQUIRED), QUOTE_NOT_FOUND / QUOTE_EXPIRED (a fresh quote), or PAYMENT_FAILED (+ paymentOutcome). */
export const BuyPaymentRequired = Type.Object(
  {
    success: Type.Literal(false),
    error: ErrorField('PAYMENT_REQUIRED, QUOTE_NOT_FOUND, QUOTE_EXPIRED or PAYMENT_FAILED'),
    payment: Type.Optional(
      Type.Object(
        {
          x402Version: Type.Integer({ description: '1' }),
          accepts: Type.Array(
            Type.Object(
              {
                network: Str('e.g. solana-localnet, solana-mainnet'),
                asset: Str('the USDC mint'),
                amount: Str('raw USDC units to pay, exactly'),
                payTo: Str('the option wallet of the side'),
              },
              Open,
            ),
          ),
          payTo: Str(),
        },
        Open,
      ),
    ),
    quote: Type.Optional(Type.Object({ ...Quote, amount: Num('USDC to pay (human)') }, Open)),
    marketSlug: Type.Optional(Str()),
    paymentOutcome: Type.Optional(PaymentOutcome),
  },
  {
    ...Open,
    description:
      'Pay accepts[0].amount raw USDC to the associated token account of payTo, then repeat the request with X-PAYMENT within ttlMs of issuedAt.',
  },
);

/** 402 of sell: step 1 asks for a token transfer; or PAYMENT_FAILED (+ paymentOutcome). */
export const SellPaymentRequired = Type.Object(
  {
    success: Type.Literal(false),
    error: ErrorField(
      'PAYMENT_REQUIRED, QUOTE_NOT_FOUND, QUOTE_EXPIRED or PAYMENT_FAILED; step 1 message: "Token transfer required to execute sell"',
    ),
    payment: Type.Optional(
      Type.Object(
        {
          x402Version: Type.Integer(),
          network: Str(),
          tokenMint: Str('the outcome mint of the side'),
          sendTo: Str('the option wallet of the side'),
          tokenAmount: Num('tokens to transfer (human)'),
          tokenAmountAtomic: Str('raw units to transfer, exactly'),
        },
        Open,
      ),
    ),
    quote: Type.Optional(
      Type.Object(
        { ...Quote, tokenAmount: Num(), usdcPayout: Num('tokenAmount × targetPrice, floored to the raw unit'), targetPrice: Num() },
        Open,
      ),
    ),
    marketSlug: Type.Optional(Str()),
    paymentOutcome: Type.Optional(PaymentOutcome),
  },
  {
    ...Open,
    description:
      'Transfer tokenAmountAtomic raw units of tokenMint to the associated token account of sendTo, then repeat the request with X-PAYMENT (asset = tokenMint, payTo = sendTo, amount = tokenAmount).',
  },
);

/** 402 of paid creation: the fee (USDC and SOL in ONE transaction), or PAYMENT_FAILED (+ paymentOutcome). */
export const CreatePaymentRequired = Type.Object(
  {
    success: Type.Literal(false),
    error: ErrorField('PAYMENT_REQUIRED or PAYMENT_FAILED'),
    payment: Type.Optional(
      Type.Object(
        {
          x402Version: Type.Integer(),
          accepts: Type.Array(
            Type.Object(
              {
                network: Str(),
                asset: Str('the USDC mint, or SOL'),
                amount: Str('raw units (lamports for SOL)'),
                payTo: Str('the platform wallet'),
              },
              Open,
            ),
          ),
          payTo: Str(),
          amountUsdc: Num(),
          amountSol: Num(),
          windowSeconds: Type.Integer(),
          expiresAt: Nullable(Type.String({ format: 'date-time' })),
        },
        Open,
      ),
    ),
    marketId: Type.Optional(Str('repeat step 1 with the same body to get the same pending market')),
    slug: Type.Optional(Str()),
    optionWallets: Type.Optional(Type.Object({ Yes: Nullable(Str()), No: Nullable(Str()) }, Open)),
    paymentOutcome: Type.Optional(PaymentOutcome),
  },
  Open,
);

export const BuyResult = Type.Object({
  slug: Str(),
  action: Type.Literal('buy'),
  side: Str('YES or NO'),
  amount: Num('USDC paid'),
  tokenAmount: Num('tokens delivered = amount / targetPrice, floored'),
  paymentTxHash: Str(),
  tokenTransferTxHash: Nullable(Str("the platform's delivery; null while not yet built")),
  deliveryStatus: DeliveryStatus,
  wallet: Str(),
});

export const SellResult = Type.Object({
  slug: Str(),
  action: Type.Literal('sell'),
  side: Str(),
  tokenAmount: Num(),
  usdcPayout: Num(),
  tokenTransferTxHash: Str("the seller's token transfer"),
  usdcPayoutTxHash: Nullable(Str()),
  deliveryStatus: DeliveryStatus,
  wallet: Str(),
});

export const ClaimEligibility = Type.Object({
  slug: Str(),
  wallet: Str(),
  outcome: Str('Yes or No'),
  payoutUsdc: Num(),
  tokenMint: Str(),
  userTokenBalance: Num(),
  marketLimit: Num(),
  payoutFunding: Type.Object({
    covered: Type.Boolean({ description: 'whether the option wallets and the platform reserve hold the payout now' }),
    availableUsdc: Num(),
  }),
  warning: Type.Optional(Str('present when the payout cannot be covered now; a confirmed claim is still recorded and paid once funded')),
  nextStep: Type.Object({
    action: Str('transferTokens'),
    tokenMint: Str(),
    tokensToTransfer: Num(),
    sendTo: Str('the platform wallet'),
    confirmEndpoint: Str(),
    hint: Str(),
  }),
});

export const ClaimConfirmation = Type.Object({
  slug: Str(),
  wallet: Str(),
  outcome: Str(),
  payoutUsdc: Num(),
  tokenAmount: Num('tokens paid for: this transfer plus earlier credited partial transfers'),
  tokenTransferTxHash: Str(),
  usdcPayoutTxHash: Nullable(Str()),
  deliveryStatus: DeliveryStatus,
  payoutWarning: Type.Optional(Str('present when deliveryStatus is awaiting_funds')),
});
