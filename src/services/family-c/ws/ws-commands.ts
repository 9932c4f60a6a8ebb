/**
 * What each client command does to a connection's subscriptions. A command is applied whole or
 * not at all: an unknown market or a breach of the subscription limit answers an `error` frame
 * and changes nothing. Acks go out before the books they announce.
 */
import { ALL_MARKETS, type WsConnection } from './ws-connection.js';
import type { WsHub } from './ws-hub.js';
import { ackFrame, errorFrame, PONG, WS_LIMITS, type ClientCommand } from './ws-protocol.js';

/** Market UUIDs for the references, or null after telling the client which ones are unknown. */
async function resolve(hub: WsHub, conn: WsConnection, refs: readonly string[]): Promise<string[] | null> {
  const ids = await hub.ports.resolveMarkets(refs);
  if (conn.closed) return null;
  const unknown = refs.filter((_, i) => ids[i] === null);
  if (unknown.length > 0) {
    hub.deliver(conn, errorFrame('UNKNOWN_MARKET', `No orderbook market ${unknown.join(', ')}; nothing was changed`, { markets: unknown }));
    return null;
  }
  return [...new Set(ids as string[])];
}

function tooMany(hub: WsHub, conn: WsConnection, adding: number): boolean {
  if (conn.subscriptionCount + adding <= WS_LIMITS.maxSubscriptions) return false;
  hub.deliver(
    conn,
    errorFrame(
      'TOO_MANY_SUBSCRIPTIONS',
      `At most ${WS_LIMITS.maxSubscriptions} subscriptions per connection (this one has ${conn.subscriptionCount}); nothing was changed`,
    ),
  );
  return true;
}

async function marketCommand(hub: WsHub, conn: WsConnection, command: Exclude<ClientCommand, { type: 'ping' }>): Promise<void> {
  if (command.type === 'unsubscribe' && command.markets === 'all') {
    const ids = [...conn.markets];
    for (const id of ids) hub.feeds.remove(conn, id);
    conn.markets.clear();
    return hub.deliver(conn, ackFrame('unsubscribed', ids));
  }
  const ids = await resolve(hub, conn, command.markets as string[]);
  if (!ids) return;
  if (command.type === 'unsubscribe') {
    for (const id of ids) {
      if (conn.markets.delete(id)) hub.feeds.remove(conn, id);
    }
    return hub.deliver(conn, ackFrame('unsubscribed', ids));
  }
  if (tooMany(hub, conn, ids.filter((id) => !conn.markets.has(id)).length)) return;
  hub.deliver(conn, ackFrame('subscribed', ids));
  for (const id of ids) {
    if (conn.closed) return;
    conn.markets.add(id);
    hub.feeds.add(conn, id); // again for a market already subscribed: a fresh book (the gap recovery)
  }
}

async function userCommand(
  hub: WsHub,
  conn: WsConnection,
  command: Exclude<ClientCommand, { type: 'ping' }>,
  pubkey: string,
): Promise<void> {
  const ids = command.markets === 'all' ? [ALL_MARKETS] : await resolve(hub, conn, command.markets);
  if (!ids) return;
  const current = conn.owners.get(pubkey) ?? new Set<string>();
  if (command.type === 'unsubscribe') {
    if (command.markets === 'all') current.clear();
    for (const id of ids) current.delete(id);
    if (current.size === 0) {
      conn.owners.delete(pubkey);
      hub.unindexOwner(conn, pubkey);
    }
    return hub.deliver(conn, ackFrame('unsubscribed', command.markets === 'all' ? 'all' : ids, pubkey));
  }
  if (tooMany(hub, conn, ids.filter((id) => !current.has(id)).length)) return;
  for (const id of ids) current.add(id);
  conn.owners.set(pubkey, current);
  hub.indexOwner(conn, pubkey);
  hub.deliver(conn, ackFrame('subscribed', command.markets === 'all' ? 'all' : ids, pubkey));
}

export async function executeCommand(hub: WsHub, conn: WsConnection, command: ClientCommand): Promise<void> {
  if (command.type === 'ping') return hub.deliver(conn, PONG);
  if (conn.channel === 'market') return marketCommand(hub, conn, command);
  return userCommand(hub, conn, command, command.pubkey!);
}
