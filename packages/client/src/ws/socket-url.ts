/**
 * Where a channel lives, and the WebSocket node uses when none is given. A browser passes its
 * own `WebSocket`; the `ws` package's browser entry only throws when called, so importing it
 * here costs a bundle nothing when a constructor is passed.
 */
import WebSocket from 'ws';
import type { WebSocketConstructor } from './channel-socket.js';

/** `http://host:port` (or `ws://…`, with or without the channel path) → `ws://host:port/v2/ws/<channel>`. */
export function channelUrl(url: string, channel: 'market' | 'user'): string {
  const path = `/v2/ws/${channel}`;
  const base = url.replace(/^http/, 'ws').replace(/\/+$/, '');
  return base.endsWith(path) ? base : `${base}${path}`;
}

export function defaultWebSocket(): WebSocketConstructor {
  return WebSocket;
}
