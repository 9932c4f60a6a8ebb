/**
 * What both program harnesses share: a real embedded ledger running one program, wallets funded
 * with real SOL and USDC, and real signed v0 transactions submitted as wire bytes (no mocks).
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, TransactionMessage, VersionedTransaction, type TransactionInstruction } from '@solana/web3.js';
import { EmbeddedLedger, type SendResult } from '../ledger.js';
import type { ProgramHandler } from '../program-runtime.js';

export const USDC = 1_000_000n;

export async function openLedger(handler: ProgramHandler): Promise<{ ledger: EmbeddedLedger; usdcMint: PublicKey }> {
  const ledger = await EmbeddedLedger.open({ programs: [handler] });
  return { ledger, usdcMint: new PublicKey(ledger.bootstrapInfo.usdcMint) };
}

export class ProgramHarness {
  constructor(
    readonly ledger: EmbeddedLedger,
    readonly usdcMint: PublicKey,
    /** The program's error name for a transaction error, when the program raised it. */
    private readonly errorName: (err: unknown) => string | undefined,
  ) {}

  async close(): Promise<void> {
    await this.ledger.close();
  }

  /** A fresh wallet with 10 SOL and `usdc` raw USDC in its associated token account. */
  async wallet(usdc: bigint): Promise<Keypair> {
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

  /** Submits a transaction expected to fail; returns the program error name (or the raw error). */
  async sendErr(ixs: TransactionInstruction[], signers: Keypair[]): Promise<string> {
    const res = await this.send(ixs, signers);
    if (res.err === null) throw new Error('transaction unexpectedly succeeded');
    return this.errorName(res.err) ?? JSON.stringify(res.err);
  }

  /** A token account's balance; 0 when the account does not exist. */
  balance(address: PublicKey): bigint {
    return this.ledger.getAccount(address) ? this.ledger.getTokenBalance(address) : 0n;
  }

  /** The USDC in `owner`'s associated token account (0 without one). */
  usdc(owner: PublicKey): bigint {
    return this.balance(getAssociatedTokenAddressSync(this.usdcMint, owner, true));
  }

  /** Every account byte the given addresses hold, to prove a refusal changed nothing. */
  snapshot(addresses: PublicKey[]): string[] {
    return addresses.map((a) => {
      const acc = this.ledger.getAccount(a);
      return acc ? `${acc.lamports}:${Buffer.from(acc.data).toString('hex')}` : 'missing';
    });
  }
}
