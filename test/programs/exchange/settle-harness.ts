/**
 * Settlement on a real embedded ledger: traders with funded smart wallets sign real order
 * messages (Ed25519 over `PMX Order:\n` + hex), and fills travel in transactions built by the
 * keeper's assembly (`buildSettlementBatch`), signed by the operator.
 */
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';
import { AddressLookupTableAccount, PublicKey } from '@solana/web3.js';
import type { SendResult } from '@pmx/local-cluster';
import { ExchangeHarness, USDC } from '@pmx/local-cluster/testing';
import {
  buildSettlementBatch,
  decodeFillReceipt,
  decodeOrderState,
  encodeOrderMessage,
  type FillReceiptAccount,
  findClobMarketPda,
  findFillReceiptPda,
  findOrderStatePda,
  getCreateLookupTableInstruction,
  getDepositInstruction,
  getExtendLookupTableInstructions,
  getSplitInstruction,
  missingLookupTableAddresses,
  type OrderMessage,
  orderSigningBytes,
  type OrderStateAccount,
  type SettlementBatch,
  type SettlementFill,
  type SignedOrder,
} from '@pmx/programs';
import type { FillType, Outcome, Side } from '../../../src/domain/orderbook/types.js';
import { outboundTag } from '../../../src/services/outbound/outbound-memo.js';
import { sendManualSettle, type ManualFill, type ManualOptions, type ManualSendResult } from './settle-manual.js';

export { USDC };
export type { ManualFill, ManualOptions };

export interface TestOrder extends SignedOrder {
  terms: OrderMessage;
  owner: Keypair;
}

export function signText(kp: Keypair, text: Uint8Array): Uint8Array {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), kp.secretKey.subarray(0, 32)]);
  return new Uint8Array(sign(null, text, createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })));
}

let nonceCounter = 1n;

export class SettleHarness {
  readonly feeWallet: PublicKey;
  /** Each market's lookup table (the keeper's), once `ensureLookupTable` made one. */
  private readonly tables = new Map<string, PublicKey>();

  private constructor(readonly h: ExchangeHarness) {
    this.feeWallet = h.ledger.platformKeypairs().protocolFee.publicKey;
  }

  static async open(): Promise<SettleHarness> {
    return new SettleHarness(await ExchangeHarness.open());
  }

  get ledger() {
    return this.h.ledger;
  }
  close() {
    return this.h.close();
  }

  /** A wallet whose smart wallet holds `usdc`, plus `sets` complete sets of `market` (split). */
  async trader(usdc: bigint, market?: string, sets = 0n): Promise<Keypair> {
    const kp = await this.h.wallet(usdc + sets + 10n * USDC);
    if (usdc + sets > 0n)
      await this.h.sendOk([getDepositInstruction({ owner: kp.publicKey, usdcMint: this.h.usdcMint, amount: usdc + sets })], [kp]);
    if (sets > 0n)
      await this.h.sendOk(
        [getSplitInstruction({ owner: kp.publicKey, usdcMint: this.h.usdcMint, marketUuid: market!, amount: sets })],
        [kp],
      );
    return kp;
  }

  order(
    owner: Keypair,
    market: string,
    t: { side: Side; outcome: Outcome; priceBps: number; quantity: bigint; nonce?: bigint; expiry?: bigint },
  ): TestOrder {
    const terms: OrderMessage = {
      market: findClobMarketPda(market)[0].toBytes(),
      owner: owner.publicKey.toBytes(),
      side: t.side,
      outcome: t.outcome,
      priceBps: t.priceBps,
      quantity: t.quantity,
      nonce: t.nonce ?? nonceCounter++,
      expiry: t.expiry ?? BigInt(this.ledger.unixTimestamp + 86_400),
    };
    const message = encodeOrderMessage(terms);
    return { message, signature: signText(owner, orderSigningBytes(message)), terms, owner };
  }

  fill(taker: TestOrder, maker: TestOrder, quantity: bigint, fillType: FillType, fillId = randomUUID()): SettlementFill {
    return { fillId, fillType, quantity, takerOrder: taker, makerOrder: maker };
  }

  orderStates(fills: readonly SettlementFill[]): Map<string, OrderStateAccount> {
    const out = new Map<string, OrderStateAccount>();
    for (const f of fills) {
      for (const o of [f.takerOrder, f.makerOrder]) {
        const owner = new PublicKey(o.message.subarray(32, 64));
        const key = findOrderStatePda(owner, Buffer.from(o.message).readBigUInt64LE(76))[0];
        const acc = this.ledger.getAccount(key);
        if (acc) out.set(key.toBase58(), decodeOrderState(acc.data));
      }
    }
    return out;
  }

  orderState(o: TestOrder): OrderStateAccount | null {
    const acc = this.ledger.getAccount(findOrderStatePda(o.owner.publicKey, o.terms.nonce)[0]);
    return acc ? decodeOrderState(acc.data) : null;
  }

  receipt(fillId: string): FillReceiptAccount | null {
    const acc = this.ledger.getAccount(findFillReceiptPda(fillId)[0]);
    return acc ? decodeFillReceipt(acc.data) : null;
  }

  /** The market's fixed settle context (operator, market, USDC mint, fee wallet). */
  marketRef(market: string) {
    return { operator: this.h.operator.publicKey, marketUuid: market, usdcMint: this.h.usdcMint, feeWallet: this.feeWallet };
  }

  lookupTable(market: string): AddressLookupTableAccount | null {
    const key = this.tables.get(market);
    return key
      ? new AddressLookupTableAccount({ key, state: AddressLookupTableAccount.deserialize(this.ledger.getAccount(key)!.data) })
      : null;
  }

  /** As the keeper does: the market's table holds every address these fills look up (extended, then one slot waited). */
  async ensureLookupTable(market: string, fills: readonly SettlementFill[]): Promise<AddressLookupTableAccount> {
    const op = this.h.operator;
    if (!this.tables.has(market)) {
      const [ix, table] = getCreateLookupTableInstruction({
        authority: op.publicKey,
        payer: op.publicKey,
        recentSlot: BigInt(this.ledger.slot) - 1n,
      });
      await this.h.sendOk([ix], [op]);
      this.tables.set(market, table);
    }
    const missing = missingLookupTableAddresses(fills, this.marketRef(market), [this.lookupTable(market)!]);
    for (const ix of getExtendLookupTableInstructions({
      table: this.tables.get(market)!,
      authority: op.publicKey,
      payer: op.publicKey,
      addresses: missing,
    })) {
      await this.h.sendOk([ix], [op]);
    }
    this.ledger.advanceSlots(1);
    return this.lookupTable(market)!;
  }

  batch(
    market: string,
    fills: readonly SettlementFill[],
    opts: { lookupTables?: AddressLookupTableAccount[]; tag?: Uint8Array } = {},
  ): SettlementBatch {
    this.ledger.advanceSlots(1);
    return buildSettlementBatch(fills, {
      ...this.marketRef(market),
      recentBlockhash: this.ledger.getLatestBlockhash().blockhash,
      tag: opts.tag ?? outboundTag(randomUUID()),
      orderStates: this.orderStates(fills),
      lookupTables: opts.lookupTables,
    });
  }

  async sendBatch(
    b: Pick<SettlementBatch, 'transaction'>,
    signers: Keypair[] = [this.h.operator],
  ): Promise<SendResult & { logs: string[] }> {
    b.transaction.sign(signers);
    const res = await this.ledger.sendRawTransaction(b.transaction.serialize());
    return { ...res, logs: this.ledger.getTransaction(res.signature)?.logs ?? [] };
  }

  /**
   * Lands these fills as the keeper would: the market's lookup table extended first, then as many
   * transactions as the assembly makes (a registration first when it asks for one). Returns each
   * transaction's kind and fill count; throws when one fails.
   */
  async settle(market: string, fills: readonly SettlementFill[]): Promise<{ kind: string; fills: number }[]> {
    const lookupTables = [await this.ensureLookupTable(market, fills)];
    const sent: { kind: string; fills: number }[] = [];
    for (let rest = [...fills]; rest.length > 0;) {
      const b = this.batch(market, rest, { lookupTables });
      const res = await this.sendBatch(b);
      if (res.err !== null) throw new Error(`settle failed: ${JSON.stringify(res.err)}\n${res.logs.join('\n')}`);
      sent.push({ kind: b.kind, fills: b.fills.length });
      rest = rest.slice(b.fills.length);
    }
    return sent;
  }

  /** [Ed25519 (proofs), settle, memo] built by hand through the market's lookup table (settle-manual.ts). */
  sendManual(market: string, fills: readonly ManualFill[], opts: ManualOptions = {}): Promise<ManualSendResult> {
    return sendManualSettle(this, market, fills, opts);
  }

  /** Every byte and lamport of these accounts, to prove a refusal changed nothing. */
  snapshot(keys: PublicKey[]): string[] {
    return this.h.snapshot(keys);
  }

  // Balances, in raw units.
  usdc(o: Keypair | PublicKey): bigint {
    return this.h.escrowUsdc('publicKey' in o ? o.publicKey : o);
  }
  tokens(o: Keypair, market: string, outcome: Outcome): bigint {
    return this.h.escrowTokens(o.publicKey, market, outcome);
  }
  feeUsdc(): bigint {
    return this.h.usdc(this.feeWallet);
  }
  vault(market: string): bigint {
    return this.h.vault(market);
  }
  supply(market: string, outcome: Outcome): bigint {
    return this.h.supply(market, outcome);
  }
  completeSets(market: string): bigint {
    return this.h.market(market).completeSets;
  }
  createMarket(): Promise<string> {
    return this.h.createMarket();
  }
}
