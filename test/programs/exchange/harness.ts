/**
 * A real embedded ledger running the exchange program: the operator initialises it, wallets get
 * real SOL and USDC, and helpers sign and submit real v0 transactions (no mocks).
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, TransactionMessage, VersionedTransaction, type TransactionInstruction } from '@solana/web3.js';
import { randomUUID } from 'node:crypto';
import { EmbeddedLedger, type SendResult } from '../../../src/chain/embedded/ledger.js';
import {
  createExchangeProgramHandler, decodeClobMarket, exchangeErrorFromTransactionError, findClobMarketPda, findClobOutcomeMintPda,
  findEscrowTokenAddress, getClobCreateMarketInstruction, getExchangeInitializeInstruction, type ClobMarketAccount,
} from '../../../src/chain/programs/exchange/index.js';

export const USDC = 1_000_000n;

export class ExchangeHarness {
  private constructor(readonly ledger: EmbeddedLedger, readonly usdcMint: PublicKey, readonly operator: Keypair) {}

  static async open(): Promise<ExchangeHarness> {
    const ledger = await EmbeddedLedger.open({ programs: [createExchangeProgramHandler()] });
    const { exchangeOperator, protocolFee } = ledger.platformKeypairs();
    const h = new ExchangeHarness(ledger, new PublicKey(ledger.bootstrapInfo.usdcMint), exchangeOperator);
    await ledger.airdrop(exchangeOperator.publicKey, 10_000_000_000n);
    await h.sendOk([getExchangeInitializeInstruction({
      operator: exchangeOperator.publicKey, usdcMint: h.usdcMint, feeWallet: protocolFee.publicKey, takerFeeBps: 25, makerRebateBps: 5,
    })], [exchangeOperator]);
    return h;
  }

  async close(): Promise<void> {
    await this.ledger.close();
  }

  async wallet(usdc = 1_000n * USDC): Promise<Keypair> {
    const kp = Keypair.generate();
    await this.ledger.airdrop(kp.publicKey, 10_000_000_000n);
    await this.ledger.mintUsdc(kp.publicKey, usdc);
    return kp;
  }

  async send(ixs: TransactionInstruction[], signers: Keypair[]): Promise<SendResult> {
    this.ledger.advanceSlots(1);
    const message = new TransactionMessage({
      payerKey: signers[0]!.publicKey, recentBlockhash: this.ledger.getLatestBlockhash().blockhash, instructions: ixs,
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

  /** Expects failure; returns the exchange error name (or the raw error). */
  async sendErr(ixs: TransactionInstruction[], signers: Keypair[]): Promise<string> {
    const res = await this.send(ixs, signers);
    if (res.err === null) throw new Error('transaction unexpectedly succeeded');
    return exchangeErrorFromTransactionError(res.err)?.name ?? JSON.stringify(res.err);
  }

  async createMarket(): Promise<string> {
    const uuid = randomUUID();
    await this.sendOk([getClobCreateMarketInstruction({ operator: this.operator.publicKey, marketUuid: uuid, usdcMint: this.usdcMint })], [this.operator]);
    return uuid;
  }

  market(uuid: string): ClobMarketAccount {
    return decodeClobMarket(this.ledger.getAccount(findClobMarketPda(uuid)[0])!.data);
  }

  private balance(address: PublicKey): bigint {
    return this.ledger.getAccount(address) ? this.ledger.getTokenBalance(address) : 0n;
  }

  walletUsdc(owner: PublicKey): bigint {
    return this.balance(getAssociatedTokenAddressSync(this.usdcMint, owner));
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

  /** Every account byte the given addresses hold, to prove a refusal changed nothing. */
  snapshot(addresses: PublicKey[]): string[] {
    return addresses.map((a) => {
      const acc = this.ledger.getAccount(a);
      return acc ? `${acc.lamports}:${Buffer.from(acc.data).toString('hex')}` : 'missing';
    });
  }
}
