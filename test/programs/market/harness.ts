/**
 * A real embedded ledger running the market program, wallets funded with real SOL and USDC, and
 * helpers that build, sign and submit real transactions (no mocks).
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, TransactionMessage, VersionedTransaction, type TransactionInstruction } from '@solana/web3.js';
import { EmbeddedLedger, type SendResult } from '../../../src/chain/embedded/ledger.js';
import {
  createMarketProgramHandler,
  decodeConfigAccount,
  decodeMarketAccount,
  findConfigPda,
  findMarketPda,
  findOutcomeMintPda,
  getBuyInstructions,
  getCreateMarketInstruction,
  getInitializeInstruction,
  getInitMintsInstruction,
  marketErrorFromTransactionError,
  type MarketAccount,
} from '../../../src/chain/programs/market/index.js';
import type { Side } from '../../../src/domain/amm/index.js';

export const USDC = 1_000_000n;

export class MarketHarness {
  private constructor(
    readonly ledger: EmbeddedLedger,
    readonly usdcMint: PublicKey,
    readonly admin: Keypair,
    readonly protocolFeeWallet: PublicKey,
  ) {}

  static async open(): Promise<MarketHarness> {
    const ledger = await EmbeddedLedger.open({ programs: [createMarketProgramHandler()] });
    const { treasury, protocolFee } = ledger.platformKeypairs();
    const h = new MarketHarness(ledger, new PublicKey(ledger.bootstrapInfo.usdcMint), treasury, protocolFee.publicKey);
    await h.sendOk(
      [getInitializeInstruction({ admin: treasury.publicKey, usdcMint: h.usdcMint, protocolFeeWallet: protocolFee.publicKey })],
      [treasury],
    );
    return h;
  }

  async close(): Promise<void> {
    await this.ledger.close();
  }

  /** A fresh wallet with 10 SOL and `usdc` raw USDC in its associated token account. */
  async wallet(usdc = 10_000n * USDC): Promise<Keypair> {
    const kp = Keypair.generate();
    await this.ledger.airdrop(kp.publicKey, 10_000_000_000n);
    await this.ledger.mintUsdc(kp.publicKey, usdc);
    return kp;
  }

  /** Signs with `signers` (the first pays the fee) and submits the wire bytes. */
  async send(ixs: TransactionInstruction[], signers: Keypair[]): Promise<SendResult> {
    // A fresh block per transaction: re-sending identical instructions must not be a duplicate.
    this.ledger.advanceSlots(1);
    const message = new TransactionMessage({
      payerKey: signers[0]!.publicKey,
      recentBlockhash: this.ledger.getLatestBlockhash().blockhash,
      instructions: ixs,
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign(signers);
    return this.ledger.sendRawTransaction(tx.serialize());
  }

  async sendOk(ixs: TransactionInstruction[], signers: Keypair[]): Promise<string> {
    const res = await this.send(ixs, signers);
    if (res.err !== null) throw new Error(`transaction failed: ${JSON.stringify(res.err)}`);
    return res.signature;
  }

  /** Submits a transaction expected to fail; returns the market error name it failed with. */
  async sendErr(ixs: TransactionInstruction[], signers: Keypair[]): Promise<string> {
    const res = await this.send(ixs, signers);
    if (res.err === null) throw new Error('transaction unexpectedly succeeded');
    return marketErrorFromTransactionError(res.err)?.name ?? JSON.stringify(res.err);
  }

  usdc(owner: PublicKey): bigint {
    return this.ledger.getTokenBalance(getAssociatedTokenAddressSync(this.usdcMint, owner, true));
  }

  tokens(owner: PublicKey, marketId: bigint, side: Side): bigint {
    const ata = getAssociatedTokenAddressSync(findOutcomeMintPda(marketId, side)[0], owner, true);
    return this.ledger.getAccount(ata) ? this.ledger.getTokenBalance(ata) : 0n;
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
  buyIxs(marketId: bigint, buyer: PublicKey, side: Side, amount: bigint, minOut = 0n): TransactionInstruction[] {
    return getBuyInstructions({ marketId, side, owner: buyer, usdcMint: this.usdcMint, amount, minOut });
  }

  /** The USDC held by every account in the ledger's view that this harness created or touched. */
  totalUsdc(owners: PublicKey[]): bigint {
    return owners.reduce((sum, o) => sum + (this.ledger.getAccount(getAssociatedTokenAddressSync(this.usdcMint, o, true)) ? this.usdc(o) : 0n), 0n);
  }
}
