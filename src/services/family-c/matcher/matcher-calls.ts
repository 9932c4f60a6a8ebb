/**
 * "This market has no matcher, and an order is waiting": a Redis channel on which API nodes call
 * the matcher nodes to run a lease round now instead of at their next tick (every quarter lease,
 * 2.5 s by default), so that the first order on a market just created is matched within a round
 * trip or two. A call is a hint: the lease rounds stay the only way a market is taken, and a
 * lost call costs only the wait for the next tick.
 */
import type { Redis } from 'ioredis';

export const matcherCallChannel = (prefix: string) => `${prefix}:clob:matcher-call`;

/** At most one call per market per this many ms from one node (orders waiting retry every 25–250 ms). */
const CALL_INTERVAL_MS = 200;

/** Returns `call(marketId)`, which publishes a call unless this node made one for the market just now. */
export function matcherCaller(publisher: Redis, prefix: string): (marketId: string) => void {
  const lastCall = new Map<string, number>();
  return (marketId) => {
    const now = Date.now();
    if (now - (lastCall.get(marketId) ?? 0) < CALL_INTERVAL_MS) return;
    lastCall.set(marketId, now);
    if (lastCall.size > 10_000) lastCall.clear(); // a bound, not a cache: forgetting only allows one more call
    publisher.publish(matcherCallChannel(prefix), marketId).catch(() => undefined); // a hint; the tick still comes
  };
}

/** Subscribes `subscriber` (a connection of its own) and runs `onCall` for each call; returns the unsubscribe. */
export async function answerMatcherCalls(subscriber: Redis, prefix: string, onCall: () => void): Promise<() => Promise<void>> {
  const channel = matcherCallChannel(prefix);
  const listener = (from: string) => {
    if (from === channel) onCall();
  };
  subscriber.on('message', listener);
  await subscriber.subscribe(channel);
  return async () => {
    subscriber.off('message', listener);
    await subscriber.unsubscribe(channel).catch(() => undefined);
  };
}
