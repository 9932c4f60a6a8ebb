/**
 * The token movements of one fill, each a real SPL Token instruction (@pmx/programs' docs/programs.md, "settle"):
 *
 *   direct, taker buys:    taker → maker  m + rebate        taker → fee wallet  dust + protocol
 *                          maker's tokens → taker  q
 *   direct, taker sells:   maker → taker  t − fee           maker → fee wallet  dust + protocol
 *                          taker's tokens → maker  q
 *   complementary:         taker → maker  rebate            maker → vault  m
 *                          taker → vault  q − m             taker → fee wallet  dust + protocol
 *                          mint q of each buyer's outcome to its smart wallet
 *   sell_complementary:    burn q of each seller's outcome
 *                          vault → taker  t − fee           vault → maker  m + rebate
 *                          vault → fee wallet  dust + protocol
 *
 * Each side pays exactly its leg plus its fee (taker) or minus its rebate (maker); the vault
 * takes in or pays out exactly q (one USDC per complete set); the fee wallet gets the protocol
 * fee and the rounding dust. Zero amounts are skipped (SPL would accept them; they cost compute).
 * The receipt's creation leads the same invoke.
 */
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { SettlementMoney } from '@pmx/programs';
import { burnInstruction, mintToInstruction, transferInstruction } from './cpi-instructions.js';
import type { LoadedOrder, SettleEnv } from './settle-env.js';

export function moveFillFunds(
  env: SettleEnv,
  taker: LoadedOrder,
  maker: LoadedOrder,
  m: SettlementMoney,
  q: bigint,
  receipt: { instructions: TransactionInstruction[]; signer: PublicKey },
): void {
  const ixs: TransactionInstruction[] = [...receipt.instructions];
  const pay = (from: PublicKey, to: PublicKey, authority: PublicKey, amount: bigint) => {
    if (amount > 0n) ixs.push(transferInstruction(from, to, authority, amount));
  };
  const toFees = m.roundingDust + m.protocolFee;
  const { vault, marketKey, feeUsdc } = env;
  switch (m.fillType) {
    case 'direct':
      if (taker.message.side === 'buy') {
        pay(taker.escrowUsdc, maker.escrowUsdc, taker.escrow, m.makerUsdc + m.makerRebate);
        pay(taker.escrowUsdc, feeUsdc, taker.escrow, toFees);
        pay(maker.escrowOutcome, taker.escrowOutcome, maker.escrow, q);
      } else {
        pay(maker.escrowUsdc, taker.escrowUsdc, maker.escrow, m.takerUsdc - m.takerFee);
        pay(maker.escrowUsdc, feeUsdc, maker.escrow, toFees);
        pay(taker.escrowOutcome, maker.escrowOutcome, taker.escrow, q);
      }
      break;
    case 'complementary':
      pay(taker.escrowUsdc, maker.escrowUsdc, taker.escrow, m.makerRebate);
      pay(maker.escrowUsdc, vault, maker.escrow, m.makerUsdc);
      pay(taker.escrowUsdc, vault, taker.escrow, q - m.makerUsdc);
      pay(taker.escrowUsdc, feeUsdc, taker.escrow, toFees);
      ixs.push(mintToInstruction(taker.outcomeMint, taker.escrowOutcome, marketKey, q));
      ixs.push(mintToInstruction(maker.outcomeMint, maker.escrowOutcome, marketKey, q));
      break;
    case 'sell_complementary':
      ixs.push(burnInstruction(taker.escrowOutcome, taker.outcomeMint, taker.escrow, q));
      ixs.push(burnInstruction(maker.escrowOutcome, maker.outcomeMint, maker.escrow, q));
      pay(vault, taker.escrowUsdc, marketKey, m.takerUsdc - m.takerFee);
      pay(vault, maker.escrowUsdc, marketKey, m.makerUsdc + m.makerRebate);
      pay(vault, feeUsdc, marketKey, toFees);
      break;
  }
  env.ctx.invoke(ixs, [taker.escrow, maker.escrow, marketKey, receipt.signer]);
}
