/**
 * The refund of an inbound transfer Family A did not honour: the same asset, from the platform
 * account that received it, back to the very account it came from (issue 8 item 2). The
 * destination must still exist and still belong to the sender (a closed or reassigned account is
 * a terminal failure for an operator: re-creating it would cost the treasury rent the sender
 * could then reclaim). USDC the receiving wallet no longer holds (payouts draw on option wallets)
 * is topped up from the platform wallet's reserve; otherwise the refund waits for funds.
 */
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, SystemProgram, type Keypair, type TransactionInstruction } from '@solana/web3.js';
import { SOL } from '../../domain/family-a/inbound-credits.js';
import { AwaitingFundsError, TerminalOutboundError } from '../outbound/outbound-errors.js';
import type { OutboundBuilder } from '../outbound/outbound.types.js';
import type { FamilyADeps } from './family-a.deps.js';
import type { RefundSource } from './inbound-facts.js';

export interface RefundParams {
  /** A mint, or SOL. */
  asset: string;
  source: RefundSource;
  /** The platform account that received the transfer (for SOL: the wallet). */
  fromAccount: string;
  /** The sender's account the value left (for SOL: the sender's wallet). */
  to: string;
  toOwner: string;
  amountRaw: string;
}

type Sign = (instructions: TransactionInstruction[], signers: Keypair[]) => Uint8Array;

function sourceWallet(deps: FamilyADeps, source: RefundSource): Keypair {
  return source === 'PLATFORM' ? deps.keys.platform() : deps.keys.optionWallet(source.marketId, source.side);
}

async function solRefund(deps: FamilyADeps, p: RefundParams, amount: bigint, sign: Sign): Promise<Uint8Array> {
  const wallet = sourceWallet(deps, p.source);
  const balance = (await deps.chain.getAccount(wallet.publicKey.toBase58()))?.lamports ?? 0n;
  if (balance < amount) {
    throw new AwaitingFundsError(`wallet ${wallet.publicKey.toBase58()} holds ${balance} lamports, the refund needs ${amount}`, {
      asset: SOL,
      missingRaw: amount - balance,
      wallets: [wallet.publicKey.toBase58()],
    });
  }
  return sign([SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: new PublicKey(p.to), lamports: amount })], [wallet]);
}

async function tokenRefund(deps: FamilyADeps, p: RefundParams, amount: bigint, sign: Sign): Promise<Uint8Array> {
  const destination = (await deps.chain.getTokenAccountsByOwner(p.toOwner, { mint: p.asset })).find((a) => a.address === p.to);
  if (!destination)
    throw new TerminalOutboundError(`refund destination ${p.to} is no longer a ${p.asset} account of ${p.toOwner}; refund manually`);
  const wallet = sourceWallet(deps, p.source);
  const held =
    (await deps.chain.getTokenAccountsByOwner(wallet.publicKey.toBase58(), { mint: p.asset })).find((a) => a.address === p.fromAccount)
      ?.amount ?? 0n;
  const first = held < amount ? held : amount;
  const ix: TransactionInstruction[] = [];
  const signers: Keypair[] = [];
  if (first > 0n) {
    ix.push(createTransferInstruction(new PublicKey(p.fromAccount), new PublicKey(p.to), wallet.publicKey, first));
    signers.push(wallet);
  }
  let missing = amount - first;
  const wallets = [wallet.publicKey.toBase58()];
  if (missing > 0n && p.asset === deps.usdcMint && p.source !== 'PLATFORM') {
    const platform = deps.keys.platform();
    const reserve = getAssociatedTokenAddressSync(new PublicKey(deps.usdcMint), platform.publicKey, true).toBase58();
    const available =
      (await deps.chain.getTokenAccountsByOwner(platform.publicKey.toBase58(), { mint: deps.usdcMint })).find((a) => a.address === reserve)
        ?.amount ?? 0n;
    const top = available < missing ? available : missing;
    if (top > 0n) {
      ix.push(createTransferInstruction(new PublicKey(reserve), new PublicKey(p.to), platform.publicKey, top));
      signers.push(platform);
      missing -= top;
    }
    wallets.push(platform.publicKey.toBase58());
  }
  if (missing > 0n)
    throw new AwaitingFundsError(`the refund of ${amount} raw ${p.asset} lacks ${missing}; fund ${wallets.join(' or ')}`, {
      asset: p.asset,
      missingRaw: missing,
      wallets,
    });
  return sign(ix, signers);
}

export function refundBuilder(
  deps: FamilyADeps,
  sign: (blockhash: string, instructions: TransactionInstruction[], signers: Keypair[], memo: TransactionInstruction) => Uint8Array,
): OutboundBuilder {
  return {
    async build(params, blockhash, context) {
      const p = params as RefundParams;
      const amount = BigInt(p.amountRaw);
      const signWith: Sign = (instructions, signers) => sign(blockhash, instructions, signers, context.memo);
      return p.asset === SOL ? solRefund(deps, p, amount, signWith) : tokenRefund(deps, p, amount, signWith);
    },
  };
}
