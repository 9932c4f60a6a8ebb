/**
 * `GET /v2/ws/market` and `GET /v2/ws/user`: WebSocket upgrades handed to the hub (contract in
 * docs/websockets.md). A plain GET without the upgrade answers 426 in Family C's envelope. The
 * socket adapter is thin: frames in, frames out, close codes; every rule lives in the hub.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { WsHub } from '../../services/family-c/ws/ws-hub.js';
import type { Channel } from '../../services/family-c/ws/ws-protocol.js';
import { errorEnvelope } from '../envelopes.js';

/** After a close frame, how long a client that does not answer may keep its socket (and buffers). */
const CLOSE_GRACE_MS = 5_000;

export function attachSocket(hub: WsHub, channel: Channel, socket: WebSocket, tcp?: Socket): void {
  const conn = hub.open(channel, {
    // The frames of one outbox slice leave in one write (ws corks per frame; nested corks hold until the outer uncork).
    cork: () => tcp?.cork(),
    uncork: () => tcp?.uncork(),
    send: (frame) => (typeof frame === 'string' ? socket.send(frame) : socket.send(frame, { binary: false })),
    close: (code, reason) => {
      socket.close(code, reason);
      setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
    },
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
  });
  socket.on('message', (data, isBinary) => hub.receive(conn, isBinary ? null : data.toString()));
  // Protocol-level pings count as activity too (some client libraries keep connections alive that way).
  socket.on('ping', () => hub.heartbeat(conn));
  socket.on('close', () => hub.closed(conn));
}

const ErrorC = Type.Object({ error: Type.String(), message: Type.String() });

export function clobWsRoutes(hub: WsHub) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    for (const channel of ['market', 'user'] as const) {
      app.route({
        method: 'GET',
        url: `/v2/ws/${channel}`,
        schema: {
          tags: ['C'],
          summary:
            channel === 'market'
              ? 'WebSocket (upgrade): book snapshot, then price_change, best_bid_ask, trade, market_resolved with a per-market seq (docs/websockets.md)'
              : 'WebSocket (upgrade): order, fill and balance events of a pubkey (docs/websockets.md); public per pubkey, no auth',
          response: { 426: ErrorC },
        },
        handler: async (_request, reply) => {
          const body = errorEnvelope('C', {
            code: 'UPGRADE_REQUIRED',
            message: `Connect with a WebSocket client to ws://<host>/v2/ws/${channel}`,
          });
          return reply
            .status(426)
            .header('upgrade', 'websocket')
            .send(body as { error: string; message: string });
        },
        wsHandler: (socket: WebSocket, request) => attachSocket(hub, channel, socket, request.raw.socket),
      });
    }
  };
}
