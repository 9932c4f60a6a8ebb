/**
 * The user-channel events of one committed matcher batch. Each carries the order or fill exactly as
 * REST presents it once the batch committed (orders/batch-views.ts: the same rows, the same
 * presenter, each object built once per batch and shared by every event and recipient). So every
 * event of one order within a batch carries the same object: the event name says what happened
 * (`order:placed`, then `order:filled` for a taker filled at once), `order.status` says where the
 * order is now, as `GET /v2/clob/orders/{id}` would (`settling` while fills are on their way).
 */
import type { OpOutcome } from '../matcher/matcher-types.js';
import type { BatchViews } from '../orders/batch-views.js';
import type { FillView } from '../orders/order.presenter.js';
import type { UserEvent } from './clob-events.js';

/**
 * A fill as user events carry it: the REST fill plus `createdAt` (= `matchedAt`), which user events
 * carried before they carried the REST shape; kept until the next major version.
 */
export function fillEventView(fill: FillView) {
  return { ...fill, createdAt: fill.matchedAt };
}

/**
 * The public names of a fill's event (public facts: `fill:matched|settling|settled|failed`, plus
 * `fill:retrying`). A fill the counterparty could not pay is `fill:failed` (its `status`
 * `failed_insufficient_balance` and `failureReason` say why), followed by the old name
 * `fill:failed_insufficient_balance` until the next major version.
 */
export function fillEventNames(status: string): string[] {
  return status === 'failed_insufficient_balance' ? ['fill:failed', `fill:${status}`] : [`fill:${status}`];
}

/** One fill's events for its maker and taker (one each when they are the same wallet). */
export function fillEvents(fill: FillView, now: number): UserEvent[] {
  const payload = fillEventView(fill);
  const owners = [...new Set([fill.makerPubkey, fill.takerPubkey])];
  return fillEventNames(fill.status).flatMap((event) =>
    owners.map((owner) => ({ event, owner, marketId: fill.marketId, fill: payload, timestamp: now })),
  );
}

export function userEventsOf(outcomes: readonly OpOutcome[], views: BatchViews, now: number): UserEvent[] {
  const events: UserEvent[] = [];
  const fillViews = new Map<string, ReturnType<typeof fillEventView>>();
  const order = (event: string, owner: string, marketId: string, id: string) => {
    const view = views.orders.get(id);
    if (view) events.push({ event, owner, marketId, order: view, timestamp: now });
  };
  for (const o of outcomes) {
    if (o.kind === 'place') {
      const marketId = o.order.marketId;
      order('order:placed', o.order.owner, marketId, o.order.id);
      if (o.outcome.status !== 'open') order(`order:${o.outcome.status}`, o.order.owner, marketId, o.order.id);
      for (const m of o.makersChanged) {
        order(`order:${m.remaining === 0n ? 'filled' : 'partially_filled'}`, m.owner, marketId, m.id);
      }
      for (const c of o.cancelled) order('order:cancelled', c.order.owner, marketId, c.order.id);
      for (const f of o.fills) {
        const view = views.fills.get(f.id);
        if (!view) continue;
        const fill = fillViews.get(f.id) ?? fillEventView(view);
        fillViews.set(f.id, fill);
        for (const owner of new Set([f.makerOwner, f.takerOwner])) {
          events.push({ event: 'fill:matched', owner, marketId, fill, timestamp: now });
        }
      }
    } else {
      for (const c of o.cancelled) order('order:cancelled', c.order.owner, o.marketId, c.order.id);
      for (const r of o.restored ?? []) order('order:restored', r.owner, o.marketId, r.id);
    }
  }
  return events;
}
