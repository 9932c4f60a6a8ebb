/**
 * A real embedded ledger running the market program (../program-harness.ts), initialised by the
 * platform treasury, with helpers for markets, positions and the config counter.
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import { createMarketProgramHandler } from '../../src/programs/market/market.handler.js';
import {
  decodeConfigAccount,
  decodeMarketAccount,
  findConfigPda,
  findMarketPda,
  findOutcomeMintPda,
  getBuyInstructions,
  getCreateMarketInstruction,
  getInitializeInstruction,
  getInitMintsInstruction,
  type MarketAccount,
  marketErrorFromTransactionError,
  type OutcomeSide,
} from '@pmx/programs';
import { openLedger, ProgramHarness, USDC } from '../../src/testing/program-harness.js';

export { USDC };

export class MarketHarness extends ProgramHarness {
  private constructor(
    base: Awaited<ReturnType<typeof openLedger>>,
    readonly admin: Keypair,
    readonly protocolFeeWallet: PublicKey,
  ) {
    super(base.ledger, base.usdcMint, (err) => marketErrorFromTransactionError(err)?.name);
  }

  static async open(): Promise<MarketHarness> {
    const base = await openLedger(createMarketProgramHandler());
    const { treasury, protocolFee } = base.ledger.platformKeypairs();
    const h = new MarketHarness(base, treasury, protocolFee.publicKey);
    await h.sendOk(
      [getInitializeInstruction({ admin: treasury.publicKey, usdcMint: h.usdcMint, protocolFeeWallet: protocolFee.publicKey })],
      [treasury],
    );
    return h;
  }

  /** A fresh wallet with 10 SOL and `usdc` raw USDC (10 000 USDC by default). */
  override wallet(usdc = 10_000n * USDC): Promise<Keypair> {
    return super.wallet(usdc);
  }

  tokens(owner: PublicKey, marketId: bigint, side: OutcomeSide): bigint {
    return this.balance(getAssociatedTokenAddressSync(findOutcomeMintPda(marketId, side)[0], owner, true));
  }

  market(marketId: bigint): MarketAccount {
    return decodeMarketAccount(this.ledger.getAccount(findMarketPda(marketId)[0])!.data);
  }

  marketCounter(): bigint {
    return decodeConfigAccount(this.ledger.getAccount(findConfigPda()[0])!.data).marketCounter;
  }

  /** create_market then init_mints (two transactions, as the API returns them). */
  async createMarket(creator: Keypair, opts: { seed: bigint; tradeFeeBps?: number; resolveIn?: number }): Promise<bigint> {
    const marketId = this.marketCounter() + 1n;
    await this.sendOk(
      [
        getCreateMarketInstruction({
          marketId,
          creator: creator.publicKey,
          usdcMint: this.usdcMint,
          title: `Market ${marketId}`,
          description: 'Will it happen?',
          yesTicker: 'UP',
          noTicker: 'DOWN',
          resolutionTime: BigInt(this.ledger.unixTimestamp + (opts.resolveIn ?? 3600)),
          seedAmount: opts.seed,
          tradeFeeBps: opts.tradeFeeBps ?? 200,
        }),
      ],
      [creator],
    );
    await this.sendOk([getInitMintsInstruction({ marketId, creator: creator.publicKey })], [creator]);
    return marketId;
  }

  /** The buyer's outcome ATA (idempotent) + buy: what the API's buy transaction contains. */
  buyIxs(marketId: bigint, buyer: PublicKey, side: OutcomeSide, amount: bigint, minOut = 0n): TransactionInstruction[] {
    return getBuyInstructions({ marketId, side, owner: buyer, usdcMint: this.usdcMint, amount, minOut });
  }

  /** The USDC held by the associated token accounts of `owners` (missing accounts count 0). */
  totalUsdc(owners: PublicKey[]): bigint {
    return owners.reduce((sum, o) => sum + this.usdc(o), 0n);
  }
}
