/**
 * The one verifier of every text a wallet signs for this service (formats in docs/api.md and docs/family-c.md):
 * Family B's creator proof (`PMX Confirm:…`), and Family C's orders (`PMX Order:\n<hex>`),
 * cancels (`PMX Cancel:<orderId>`), cancel by ids (`PMX Cancel Orders:<ids>:<unix seconds>`) and cancel-all
 * (`PMX Cancel All:<market|*>:<unix seconds>`) and heartbeats (`PMX Heartbeat:<timeoutSec>:<unix seconds>`).
 *
 * Wallets sign the UTF-8 bytes of the text with Ed25519 (Solana's `signMessage`). Verification
 * is the chain's strict rule (ed25519-strict.ts, on node's built-in Ed25519): computation only,
 * no I/O, so it belongs to the domain. Signatures are accepted in base58 (what Solana
 * wallets show) or padded base64; public keys in base58.
 */
import bs58 from 'bs58';
import { BASE58_PUBKEY, BASE58_SIGNATURE, verifyStrict } from '@pmx/programs';

export type SignatureRefusal = 'MALFORMED_PUBKEY' | 'MALFORMED_SIGNATURE' | 'BAD_SIGNATURE';
export type SignatureCheck = { ok: true } | { ok: false; reason: SignatureRefusal; message: string };

function decodeBase58(text: string): Uint8Array | undefined {
  try {
    return bs58.decode(text);
  } catch {
    return undefined;
  }
}

/** 64 bytes as padded base64 (88 characters ending in `==`) or as base58 (never contains `=`). */
export function decodeSignature(signature: string): Uint8Array | undefined {
  const bytes = /^[A-Za-z0-9+/]{86}==$/.test(signature)
    ? Buffer.from(signature, 'base64')
    : BASE58_SIGNATURE.test(signature)
      ? decodeBase58(signature)
      : undefined;
  return bytes?.length === 64 ? bytes : undefined;
}

/**
 * A transaction signature (tx hash) as RPC nodes take it: base58 of exactly 64 bytes. Padded
 * base64 is refused here, so input a node would answer "Invalid params" never reaches it.
 */
export function decodeTransactionSignature(text: string): Uint8Array | undefined {
  return text.endsWith('=') ? undefined : decodeSignature(text);
}

/**
 * Decoded keys by base58 text, bounded (oldest dropped first): a trader's every order and cancel
 * is checked with the same key, and every order names its market's address (the parsed
 * KeyObjects are cached by ed25519-strict.ts, by these same arrays). The arrays are shared:
 * callers read them and never write them.
 */
const KEYS = new Map<string, Uint8Array>();
const KEYS_MAX = 10_000;

/**
 * The 32 bytes of a base58 address (a wallet's key, or any account's, on the curve or not), or
 * undefined when it is not one: what web3.js's `new PublicKey(text)` accepts from a text that
 * passes BASE58_PUBKEY, without its big-number round trip.
 */
export function base58KeyBytes(pubkey: string): Uint8Array | undefined {
  const cached = KEYS.get(pubkey);
  if (cached) return cached;
  const bytes = BASE58_PUBKEY.test(pubkey) ? decodeBase58(pubkey) : undefined;
  if (bytes?.length !== 32) return undefined;
  if (KEYS.size >= KEYS_MAX) KEYS.delete(KEYS.keys().next().value!);
  KEYS.set(pubkey, bytes);
  return bytes;
}

/**
 * Did the holder of `pubkey` sign exactly `message` (a text, or raw bytes)? The rule is the
 * chain's (verifyStrict): a signature accepted here is accepted by the Ed25519 precompile.
 */
export function verifySignedMessage(message: string | Uint8Array, pubkey: string, signature: string): SignatureCheck {
  const bytes = typeof message === 'string' ? Buffer.from(message, 'utf8') : message;
  return verifySignedBytes(bytes, base58KeyBytes(pubkey), decodeSignature(signature));
}

/**
 * verifySignedMessage for a caller that has decoded the key (base58KeyBytes) and the signature
 * (decodeSignature) already, and needs them again: undefined is the malformed input's refusal.
 */
export function verifySignedBytes(message: Uint8Array, key: Uint8Array | undefined, signature: Uint8Array | undefined): SignatureCheck {
  if (!key) return { ok: false, reason: 'MALFORMED_PUBKEY', message: 'the public key is not a base58 Ed25519 key' };
  if (!signature) return { ok: false, reason: 'MALFORMED_SIGNATURE', message: 'the signature is not 64 bytes in base58 or base64' };
  return verifyStrict(message, signature, key)
    ? { ok: true }
    : {
        ok: false,
        reason: 'BAD_SIGNATURE',
        message:
          'the signature does not match the message and public key (strict Ed25519: no small-order key or R, S below the group order)',
      };
}

/**
 * Timestamped proofs are accepted within ±`windowSec` of the server's clock (seconds), so a
 * captured proof cannot be replayed later and a client clock a little off still works.
 */
export function isFresh(unixSeconds: number, nowMs: number, windowSec: number): boolean {
  return Number.isSafeInteger(unixSeconds) && Math.abs(nowMs / 1000 - unixSeconds) <= windowSec;
}

/** Family B: the creator's proof for `POST /v2/markets/confirm` (docs/api.md). */
export const confirmMarketText = (marketId: number | bigint, timestamp: number): string => `PMX Confirm:${marketId}:${timestamp}`;
export const CONFIRM_WINDOW_SEC = 60;

/** Family C: cancelling one order (`POST /v2/clob/orders/{id}/cancel`). */
export const cancelOrderText = (orderId: string): string => `PMX Cancel:${orderId}`;
/** Family C: cancelling every resting order of the owner in one market, or all markets with `*`. */
export const cancelAllText = (market: string, timestamp: number): string => `PMX Cancel All:${market}:${timestamp}`;
export const CANCEL_ALL_WINDOW_SEC = 60;
/** Family C: the dead-man's switch (`POST /v2/clob/heartbeat`); `timeoutSec` 0 disarms it. */
export const heartbeatText = (timeoutSec: number, timestamp: number): string => `PMX Heartbeat:${timeoutSec}:${timestamp}`;
export const HEARTBEAT_WINDOW_SEC = 60;
/** Family C: cancelling named orders of one owner, ids as the API returned them, in the order sent. */
export const cancelOrdersText = (orderIds: readonly string[], timestamp: number): string =>
  `PMX Cancel Orders:${orderIds.join(',')}:${timestamp}`;
