/**
 * Family A's outbound transactions (see src/services/outbound). Each moves a fixed amount decided
 * when the intent was recorded; the treasury pays fees and ATA rent. Delivery mints on demand
 * (mint authority: the treasury), so nothing is pre-minted and the idempotency key of the intent
 * is what guarantees one delivery per payment.
 */
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import {
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
  type Keypair,
  type TransactionInstruction,
} from '@solana/web3.js';
import { DECIMALS } from '../../domain/family-a/money.js';
import type { OutcomeSide } from '../../domain/family-a/side.js';
import { setMarketStatus } from '../../../db/repositories/family-a-markets.repository.js';
import { AwaitingFundsError } from '../outbound/outbound-errors.js';
import type { OutboundBuildContext, OutboundBuilders } from '../outbound/outbound.types.js';
import type { FamilyADeps } from './family-a.deps.js';
import { refundBuilder } from './refund.builder.js';
import { signTransaction } from '@pmx/programs';

export const PURPOSES = {
  setup: 'family-a.setup-market',
  deliverTokens: 'family-a.deliver-tokens',
  payUsdc: 'family-a.pay-usdc',
  platformAccounts: 'family-a.platform-accounts',
  refund: 'family-a.refund',
} as const;

export type { RefundParams } from './refund.builder.js';

export interface SetupParams {
  marketId: string;
}
export interface DeliverParams {
  mint: string;
  owner: string;
  amountRaw: string;
}
/**
 * Paid from `sources` in order: the market's option wallets (a claim drains the winning side
 * first), then PLATFORM, the Family A platform wallet that collects creation fees and that an
 * operator funds as the markets' liquidity reserve.
 */
export interface PayUsdcParams {
  marketId: string;
  sources: (OutcomeSide | 'PLATFORM')[];
  to: string;
  amountRaw: string;
}

function sign(
  deps: FamilyADeps,
  blockhash: string,
  instructions: TransactionInstruction[],
  signers: Keypair[],
  context: OutboundBuildContext,
): Uint8Array {
  const message = new TransactionMessage({
    payerKey: deps.treasury.publicKey,
    recentBlockhash: blockhash,
    instructions: [...instructions, context.memo],
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  signTransaction(tx, [deps.treasury, ...signers]);
  return tx.serialize();
}

const ata = (mint: PublicKey, owner: PublicKey) => getAssociatedTokenAddressSync(mint, owner, true);

export function familyABuilders(deps: FamilyADeps): OutboundBuilders {
  const usdc = new PublicKey(deps.usdcMint);
  const payer = deps.treasury.publicKey;
  return {
    [PURPOSES.refund]: refundBuilder(deps, (blockhash, instructions, signers, memo) =>
      sign(deps, blockhash, instructions, signers, { outboundId: '', memo }),
    ),
    [PURPOSES.setup]: {
      async build(params, blockhash, context) {
        const { marketId } = params as SetupParams;
        const ix: TransactionInstruction[] = [];
        const signers: Keypair[] = [];
        const platform = deps.keys.platform().publicKey;
        const rent = await deps.chain.getMinimumBalanceForRentExemption(MINT_SIZE);
        for (const side of ['YES', 'NO'] as const) {
          const mint = deps.keys.mint(marketId, side);
          const option = deps.keys.optionWallet(marketId, side).publicKey;
          if (!(await deps.chain.getAccount(mint.publicKey.toBase58()))) {
            ix.push(
              SystemProgram.createAccount({
                fromPubkey: payer,
                newAccountPubkey: mint.publicKey,
                lamports: Number(rent),
                space: MINT_SIZE,
                programId: TOKEN_PROGRAM_ID,
              }),
              createInitializeMint2Instruction(mint.publicKey, DECIMALS, payer, null),
            );
            signers.push(mint);
          }
          // Buyers pay into the option wallet's USDC account; sellers and claimers send tokens
          // to accounts that must exist for a plain transfer to succeed.
          ix.push(
            createAssociatedTokenAccountIdempotentInstruction(payer, ata(usdc, option), option, usdc),
            createAssociatedTokenAccountIdempotentInstruction(payer, ata(mint.publicKey, option), option, mint.publicKey),
            createAssociatedTokenAccountIdempotentInstruction(payer, ata(mint.publicKey, platform), platform, mint.publicKey),
          );
        }
        ix.push(createAssociatedTokenAccountIdempotentInstruction(payer, ata(usdc, platform), platform, usdc));
        return sign(deps, blockhash, ix, signers, context);
      },
      async onConfirmed(params) {
        const { marketId } = params as SetupParams;
        await setMarketStatus(deps.db, marketId, ['creating'], 'live', new Date().toISOString(), true);
      },
    },
    // The platform wallet's USDC account, so a creation fee can be paid with a plain transfer
    // before any market exists. Recorded once at startup (idempotency key a-platform-accounts).
    [PURPOSES.platformAccounts]: {
      async build(_params, blockhash, context) {
        const platform = deps.keys.platform().publicKey;
        return sign(
          deps,
          blockhash,
          [createAssociatedTokenAccountIdempotentInstruction(payer, ata(usdc, platform), platform, usdc)],
          [],
          context,
        );
      },
    },
    [PURPOSES.deliverTokens]: {
      async build(params, blockhash, context) {
        const p = params as DeliverParams;
        const mint = new PublicKey(p.mint);
        const owner = new PublicKey(p.owner);
        const dest = ata(mint, owner);
        return sign(
          deps,
          blockhash,
          [
            createAssociatedTokenAccountIdempotentInstruction(payer, dest, owner, mint),
            createMintToInstruction(mint, dest, payer, BigInt(p.amountRaw)),
          ],
          [],
          context,
        );
      },
    },
    [PURPOSES.payUsdc]: {
      async build(params, blockhash, context) {
        const p = params as PayUsdcParams;
        const to = new PublicKey(p.to);
        const dest = ata(usdc, to);
        const ix: TransactionInstruction[] = [createAssociatedTokenAccountIdempotentInstruction(payer, dest, to, usdc)];
        const signers: Keypair[] = [];
        const wallets: string[] = [];
        let remaining = BigInt(p.amountRaw);
        for (const side of p.sources) {
          if (remaining === 0n) break;
          const wallet = side === 'PLATFORM' ? deps.keys.platform() : deps.keys.optionWallet(p.marketId, side);
          const source = ata(usdc, wallet.publicKey);
          wallets.push(wallet.publicKey.toBase58());
          const [account] = await deps.chain.getTokenAccountsByOwner(wallet.publicKey.toBase58(), { mint: deps.usdcMint });
          const available = account?.amount ?? 0n;
          const take = available < remaining ? available : remaining;
          if (take === 0n) continue;
          ix.push(createTransferCheckedInstruction(source, usdc, dest, wallet.publicKey, take, DECIMALS));
          signers.push(wallet);
          remaining -= take;
        }
        // Never a partial payout: wait (with backoff, without using up attempts) until an operator
        // funds the platform wallet; the shortfall is kept on the row and shown to operators.
        if (remaining > 0n) {
          throw new AwaitingFundsError(
            `the option wallets of market ${p.marketId} and the platform wallet lack ${remaining} raw USDC for this payout of ${p.amountRaw}; fund the platform wallet ${deps.keys.platform().publicKey.toBase58()}`,
            { asset: deps.usdcMint, missingRaw: remaining, wallets },
          );
        }
        return sign(deps, blockhash, ix, signers, context);
      },
    },
  };
}
