/**
 * The X-PAYMENT header: base64 of the JSON payment payload (spec "Payment payload"). Decoding is
 * strict: anything that is not base64 of a JSON object with the required fields is a 400
 * VALIDATION_ERROR, so a malformed header never reaches the chain or the database.
 */
import { DomainError } from '../errors.js';
import { BASE58_TEXT } from '@pmx/programs';
import { decodeTransactionSignature } from '../signed-message.js';

export interface PaymentPayload {
  x402Version: number;
  network: string;
  txHash: string;
  amount: number;
  payer: string;
  payTo: string;
  asset: string;
  networkId?: string;
  quoteIssuedAt: string;
}

function invalid(message: string): DomainError {
  return new DomainError('invalid', 'VALIDATION_ERROR', `Malformed X-PAYMENT header: ${message}`);
}

/** `quote: false` for payments that answer no quote (market creation); quoteIssuedAt is then optional. */
export function decodePaymentHeader(header: string, opts: { quote?: boolean } = {}): PaymentPayload {
  const text = header.trim();
  if (text.length === 0 || text.length > 4096 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw invalid('not base64');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw invalid('not base64-encoded JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('not a JSON object');
  const p = value as Record<string, unknown>;
  if (p.x402Version !== 1) throw invalid('x402Version must be 1');
  if (opts.quote === false && p.quoteIssuedAt === undefined) p.quoteIssuedAt = new Date(0).toISOString();
  for (const field of ['txHash', 'payer', 'payTo', 'asset', 'quoteIssuedAt', 'network'] as const) {
    if (typeof p[field] !== 'string' || (p[field] as string).length === 0) throw invalid(`${field} must be a non-empty string`);
  }
  if (typeof p.amount !== 'number' || !Number.isFinite(p.amount)) throw invalid('amount must be a number');
  for (const field of ['txHash', 'payer', 'payTo', 'asset'] as const) {
    const v = p[field] as string;
    if (!BASE58_TEXT.test(v) || v.length === 0 || v.length > 100) throw invalid(`${field} is not base58`);
  }
  // A txHash the node cannot parse would reach getSignatureStatuses and fail there (500/503).
  if (!decodeTransactionSignature(p.txHash as string)) throw invalid('txHash is not a transaction signature (base58 of 64 bytes)');
  if (Number.isNaN(Date.parse(p.quoteIssuedAt as string))) throw invalid('quoteIssuedAt is not an ISO 8601 date');
  return {
    x402Version: 1,
    network: p.network as string,
    txHash: p.txHash as string,
    amount: p.amount,
    payer: p.payer as string,
    payTo: p.payTo as string,
    asset: p.asset as string,
    networkId: typeof p.networkId === 'string' ? p.networkId : undefined,
    quoteIssuedAt: p.quoteIssuedAt as string,
  };
}

export function encodePaymentHeader(payload: PaymentPayload): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64');
}
