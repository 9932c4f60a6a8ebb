/**
 * The Family C WebSocket contract (public facts, "WebSockets"; docs/websockets.md): the limits,
 * the close codes, what a client may send and the server's own frames (acks and errors). Pure:
 * the hub and the socket adapter share these, the tests check the documented table against them.
 */
import { isDomainError } from '../../../domain/errors.js';
import { parsePubkey } from '../context.js';

export type Channel = 'market' | 'user';

export const WS_LIMITS = {
  /** Markets (market channel) or pubkey/market pairs (user channel) one connection may hold. */
  maxSubscriptions: 50,
  /** Frames a client may send per second (any frame: PING, subscribe, garbage). */
  messagesPerSecond: 20,
  /** Largest frame a client may send; bigger ones close the connection (1009) before being buffered. */
  maxMessageBytes: 4096,
  /** Longest market reference (UUID or slug) accepted. */
  maxMarketRefLength: 80,
} as const;

/** Why the server closes a connection: codes below 4000 are RFC 6455's, 4000–4999 this API's own. */
export const WS_CLOSE = {
  /** The API node is shutting down: reconnect (to any node). */
  goingAway: 1001,
  /** A frame over 4 KB (WS_LIMITS.maxMessageBytes). */
  tooBig: 1009,
  /** The node lost its event stream (Redis reconnect): user-channel events may have been missed. */
  serviceRestart: 1012,
  /** Nothing received for the idle timeout (30 s): send PING every ~15 s. */
  idle: 4008,
  /** The client does not read fast enough: its send buffer grew over the bound. */
  slowConsumer: 4010,
  /** More than 20 frames in one second. */
  tooFast: 4029,
} as const;

export type ClientCommand =
  | { type: 'ping' }
  | { type: 'subscribe'; markets: string[] | 'all'; pubkey?: string }
  | { type: 'unsubscribe'; markets: string[] | 'all'; pubkey?: string };

export type Parsed = { ok: true; command: ClientCommand } | { ok: false; code: string; message: string };

/** Error codes of `{"event":"error"}` frames (stable, for programs to branch on). */
export const WS_ERROR_CODES = [
  'INVALID_MESSAGE',
  'UNKNOWN_MARKET',
  'TOO_MANY_SUBSCRIPTIONS',
  'BOOK_UNAVAILABLE',
  'BINARY_NOT_SUPPORTED',
  'UNAVAILABLE',
] as const;
export type WsErrorCode = (typeof WS_ERROR_CODES)[number];

const hasControlCharacter = (s: string) => [...s].some((ch) => ch.charCodeAt(0) < 0x20);

const invalid = (message: string): Parsed => ({ ok: false, code: 'INVALID_MESSAGE', message });

function marketList(value: unknown, channel: Channel, type: 'subscribe' | 'unsubscribe'): string[] | 'all' | string {
  if (value === undefined) {
    // Unsubscribing without markets drops them all; a user-channel subscription without markets covers all of the pubkey's.
    if (type === 'unsubscribe' || channel === 'user') return 'all';
    return 'markets is required: an array of market UUIDs or slugs';
  }
  if (!Array.isArray(value)) return 'markets must be an array of market UUIDs or slugs';
  if (value.length === 0) return 'markets must not be empty';
  if (value.length > WS_LIMITS.maxSubscriptions) return `markets may list at most ${WS_LIMITS.maxSubscriptions} entries`;
  const refs: string[] = [];
  for (const m of value) {
    if (typeof m !== 'string' || m.length === 0 || m.length > WS_LIMITS.maxMarketRefLength || hasControlCharacter(m)) {
      return `each market must be a UUID or slug of 1–${WS_LIMITS.maxMarketRefLength} characters`;
    }
    refs.push(m);
  }
  if (refs.includes('*'))
    return channel === 'user' && refs.length === 1 ? 'all' : '"*" (all markets) stands alone, on the user channel only';
  return [...new Set(refs)];
}

/** One text frame from a client: `PING`, or a JSON subscribe/unsubscribe command. */
export function parseClientMessage(channel: Channel, text: string): Parsed {
  if (text.trim().toUpperCase() === 'PING') return { ok: true, command: { type: 'ping' } };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return invalid(`Malformed JSON: ${(err as Error).message}; send PING or {"type":"subscribe","markets":[…]}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalid('A command is a JSON object with "type"');
  const { type, markets, pubkey } = body as Record<string, unknown>;
  if (type !== 'subscribe' && type !== 'unsubscribe') return invalid('type must be "subscribe" or "unsubscribe"');
  const list = marketList(markets, channel, type);
  if (typeof list === 'string' && list !== 'all') return invalid(list);
  if (channel === 'market') return { ok: true, command: { type, markets: list as string[] | 'all' } };
  if (typeof pubkey !== 'string') return invalid('pubkey is required on the user channel (base58 Solana public key)');
  try {
    parsePubkey(pubkey);
  } catch (err) {
    if (isDomainError(err)) return invalid(err.message);
    throw err;
  }
  return { ok: true, command: { type, markets: list as string[] | 'all', pubkey } };
}

export function errorFrame(code: WsErrorCode, message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ event: 'error', code, message, ...extra });
}

export function ackFrame(event: 'subscribed' | 'unsubscribed', markets: string[] | 'all', pubkey?: string): string {
  return JSON.stringify({ event, ...(pubkey ? { pubkey } : {}), markets: markets === 'all' ? ['*'] : markets });
}

export const PONG = 'PONG';
