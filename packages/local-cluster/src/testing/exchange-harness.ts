/**
 * A real embedded ledger running the exchange program (program-harness.ts): the operator
 * initialises it (25 bps taker fee, 5 bps maker rebate), with helpers for markets and smart wallets.
 */
import type { Keypair, PublicKey } from '@solana/web3.js';
import { randomUUID } from 'node:crypto';
import {
  type ClobMarketAccount,
  decodeClobMarket,
  exchangeErrorFromTransactionError,
  findClobMarketPda,
  findClobOutcomeMintPda,
  findEscrowTokenAddress,
  getClobCreateMarketInstruction,
  getExchangeInitializeInstruction,
} from '@pmx/programs';
import { createExchangeProgramHandler } from '../programs/exchange/exchange.handler.js';
import { openLedger, ProgramHarness, USDC } from './program-harness.js';

export class ExchangeHarness extends ProgramHarness {
  private constructor(
    base: Awaited<ReturnType<typeof openLedger>>,
    readonly operator: Keypair,
  ) {
    super(base.ledger, base.usdcMint, (err) => exchangeErrorFromTransactionError(err)?.name);
  }

  static async open(): Promise<ExchangeHarness> {
    const base = await openLedger(createExchangeProgramHandler());
    const { exchangeOperator, protocolFee } = base.ledger.platformKeypairs();
    const h = new ExchangeHarness(base, exchangeOperator);
    await base.ledger.airdrop(exchangeOperator.publicKey, 10_000_000_000n);
    await h.sendOk(
      [
        getExchangeInitializeInstruction({
          operator: exchangeOperator.publicKey,
          usdcMint: h.usdcMint,
          feeWallet: protocolFee.publicKey,
          takerFeeBps: 25,
          makerRebateBps: 5,
        }),
      ],
      [exchangeOperator],
    );
    return h;
  }

  /** A fresh wallet with 10 SOL and `usdc` raw USDC (1 000 USDC by default). */
  override wallet(usdc = 1_000n * USDC): Promise<Keypair> {
    return super.wallet(usdc);
  }

  async createMarket(): Promise<string> {
    const uuid = randomUUID();
    await this.sendOk(
      [getClobCreateMarketInstruction({ operator: this.operator.publicKey, marketUuid: uuid, usdcMint: this.usdcMint })],
      [this.operator],
    );
    return uuid;
  }

  market(uuid: string): ClobMarketAccount {
    return decodeClobMarket(this.ledger.getAccount(findClobMarketPda(uuid)[0])!.data);
  }

  escrowUsdc(owner: PublicKey): bigint {
    return this.balance(findEscrowTokenAddress(owner, this.usdcMint));
  }

  escrowTokens(owner: PublicKey, uuid: string, outcome: 'yes' | 'no'): bigint {
    return this.balance(findEscrowTokenAddress(owner, findClobOutcomeMintPda(uuid, outcome)[0]));
  }

  vault(uuid: string): bigint {
    return this.balance(this.market(uuid).vault);
  }

  supply(uuid: string, outcome: 'yes' | 'no'): bigint {
    const data = this.ledger.getAccount(findClobOutcomeMintPda(uuid, outcome)[0])!.data;
    return Buffer.from(data).readBigUInt64LE(36);
  }
}
