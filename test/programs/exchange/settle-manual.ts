/**
 * A settle transaction built by hand for the settlement tests: [Ed25519 (proofs), settle, memo]
 * through the market's lookup table, with no assembly checks in the way, so a test can send what
 * the keeper never would (a withheld proof, another operator key, a proof for an existing order).
 */
import { randomUUID } from 'node:crypto';
import type { Keypair, PublicKey } from '@solana/web3.js';
import { TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { SendResult } from '@pmx/local-cluster';
import { createEd25519Instruction, type Ed25519Entry, getSettleInstruction, orderSigningBytes } from '@pmx/programs';
import { outboundMemoInstruction, outboundTag } from '../../../src/services/outbound/outbound-memo.js';
import type { SettleHarness, TestOrder } from './settle-harness.js';

/** A fill as the tests hand-build it (no assembly checks in the way). */
export interface ManualFill {
  taker: TestOrder;
  maker: TestOrder;
  quantity: bigint;
  fillId?: string;
}

export interface ManualOptions {
  /** Fee payer and signer (default: the operator). */
  signer?: Keypair;
  /** The operator key named in the instruction (default: the signer's). */
  operatorKey?: PublicKey;
  /** The proof of each order new on chain: its Ed25519 entry, or null to send none. Default: the owner's real signature. */
  proof?: (o: TestOrder) => Ed25519Entry | null;
  /** Send a proof even for orders whose account exists (default: only for new ones, as the keeper does). */
  alwaysProve?: boolean;
  /** Called with the instruction's accounts (signer excluded) just before sending. */
  beforeSend?: (accounts: PublicKey[]) => void;
}

export type ManualSendResult = SendResult & { logs: string[]; touched: PublicKey[] };

/** Sends the fills as one hand-built transaction; a proof the caller withholds still names instruction 0 (where a proof would be). */
export async function sendManualSettle(
  harness: SettleHarness,
  market: string,
  fills: readonly ManualFill[],
  opts: ManualOptions = {},
): Promise<ManualSendResult> {
  const signer = opts.signer ?? harness.h.operator;
  const list: TestOrder[] = [];
  const at = (o: TestOrder) => {
    let i = list.findIndex((x) => x.owner.publicKey.equals(o.owner.publicKey) && x.terms.nonce === o.terms.nonce);
    if (i < 0) i = list.push(o) - 1;
    return i;
  };
  const settleFills = fills.map((f) => ({
    fillId: f.fillId ?? randomUUID(),
    taker: at(f.taker),
    maker: at(f.maker),
    quantity: f.quantity,
  }));
  const entries: Ed25519Entry[] = [];
  const orders = list.map((o) => {
    const base = { owner: o.owner.publicKey, nonce: o.terms.nonce, outcome: o.terms.outcome };
    if (harness.orderState(o) && !opts.alwaysProve) return base;
    const entry = (
      opts.proof ??
      ((x: TestOrder) => ({ publicKey: x.owner.publicKey.toBytes(), signature: x.signature, message: orderSigningBytes(x.message) }))
    )(o);
    if (entry) entries.push(entry);
    return { ...base, proof: { ix: 0, entry: entry ? entries.length - 1 : 0 } };
  });
  const settle = getSettleInstruction({
    operator: opts.operatorKey ?? signer.publicKey,
    marketUuid: market,
    usdcMint: harness.h.usdcMint,
    feeWallet: harness.feeWallet,
    orders,
    fills: settleFills,
    tag: outboundTag(randomUUID()),
  });
  // An operator key other than the signer's is named without its signature.
  if (!settle.keys[0]!.pubkey.equals(signer.publicKey)) settle.keys[0] = { ...settle.keys[0]!, isSigner: false };
  const ixs = [...(entries.length ? [createEd25519Instruction(entries)] : []), settle, outboundMemoInstruction(randomUUID())];
  const table = await harness.ensureLookupTable(
    market,
    fills.map((f) => harness.fill(f.taker, f.maker, f.quantity, 'direct')),
  );
  const msg = new TransactionMessage({
    payerKey: signer.publicKey,
    recentBlockhash: harness.ledger.getLatestBlockhash().blockhash,
    instructions: ixs,
  }).compileToV0Message([table]);
  const tx = new VersionedTransaction(msg);
  tx.sign([signer]);
  const touched = settle.keys.map((k) => k.pubkey).filter((k) => !k.equals(signer.publicKey));
  opts.beforeSend?.(touched);
  const res = await harness.ledger.sendRawTransaction(tx.serialize());
  return { ...res, logs: harness.ledger.getTransaction(res.signature)?.logs ?? [], touched };
}
