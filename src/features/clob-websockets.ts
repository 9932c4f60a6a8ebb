/**
 * Family C WebSockets in processes with the api role: the hub (pure), its Redis tap (one
 * subscriber per node), the market resolver, the routes, and the idle sweep. The tap subscribes
 * before the HTTP server listens (role services start first) and stops after it closed.
 */
import { BusTap } from '../api/ws/bus-tap.js';
import { marketResolver } from '../api/ws/market-resolver.js';
import { clobWsRoutes } from '../api/ws/ws.routes.js';
import type { FamilyCContext } from '../services/family-c/context.js';
import type { ClobEventBus } from '../services/family-c/events/event-bus.js';
import { IDLE_SWEEP_MS, WsHub } from '../services/family-c/ws/ws-hub.js';
import type { FeatureContext, RoleService } from './feature.js';

export function clobWebSockets(ctx: FeatureContext, c: FamilyCContext, bus: ClobEventBus) {
  const log = c.log.child({ component: 'websockets' });
  const tap = new BusTap({
    ctx: c,
    bus,
    subscriber: ctx.redis('general', 'pmx-clob-ws-events'),
    reader: ctx.redis('general', 'pmx-clob-ws-books'),
    log,
  });
  const hub = new WsHub(
    {
      resolveMarkets: marketResolver(c),
      readBook: (marketId, ticket) => tap.readBook(marketId, ticket),
      now: Date.now,
      warn: (detail, message) => log.warn(detail, message),
      closedWith: (code) => ctx.metrics.wsCloses.inc({ code: String(code) }),
    },
    ctx.config.ws,
  );
  ctx.metrics.setWebSocketSource(() => hub.stats());
  let sweep: NodeJS.Timeout | undefined;
  const service: RoleService = {
    async start() {
      await tap.start(hub);
      sweep = setInterval(() => hub.sweepIdle(), IDLE_SWEEP_MS);
      sweep.unref();
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      await tap.stop();
    },
  };
  return { hub, routes: clobWsRoutes(hub), service };
}
