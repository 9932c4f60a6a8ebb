/**
 * buildApp(deps): the Fastify facade without listen(), so tests drive it with inject() and
 * src/main.ts decides where it listens. Every route has a schema; every error leaves in its
 * family's envelope (error-handler.ts).
 */
import '../infra/hot-shapes.js';
import type { Queue } from 'bullmq';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  type onSendHookHandler,
  type preHandlerHookHandler,
} from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DaemonMetrics } from '../infra/metrics.js';
import { installValidators } from './validators.js';
import { installStorableTextGuard, storableTextGuard } from './storable-text.js';
import { clientErrorHandler } from './client-errors.js';
import { capConnectionsPerClient } from './connection-cap.js';
import { installRequestLog } from './request-log.js';
import { makeRequestLoggersLazy } from './request-logger.js';
import { frameworkErrorHandler, installErrorHandlers, notFoundHandler } from './error-handler.js';
import { registerDashboard, type DashboardQueues } from './plugins/dashboard.plugin.js';
import { latencyObserver, registerMetrics } from './plugins/metrics.plugin.js';
import { registerOpenApi } from './plugins/openapi.plugin.js';
import { registerRateLimit } from './plugins/rate-limit.plugin.js';
import type { ReadinessProbe } from '../services/readiness.service.js';
import { WS_LIMITS } from '../services/family-c/ws/ws-protocol.js';
import { systemRoutes } from './routes/system.routes.js';
import { auditRoutes } from './routes/audit.routes.js';
import { auditHooks } from './plugins/audit.plugin.js';
import { chainOnSend, chainPreHandlers, listed, operatorSendStage, operatorStage } from './hook-pairs.js';
import { mayServeAdminPath, registerOperatorAuth, type OperatorAccess } from './plugins/operator-auth.js';
import { createOperatorAccess, DEFAULT_SESSION_SETTINGS } from '../services/operators/operator-access.js';
import type { AuditLog } from '../services/operator-audit.service.js';
import type { NodesOverview } from '../services/nodes-overview.service.js';
import { nodesRoutes } from './routes/nodes.routes.js';
import { registerWebsocket, upgradeAsked } from './ws/websocket.plugin.js';

export interface AppDeps {
  log: Logger;
  version: string;
  /** Connection for the shared rate-limit counters. */
  redis: Redis;
  rateLimit: { readPerMinute: number; writePerMinute: number; nameSpace: string };
  metrics: DaemonMetrics;
  adminToken: string;
  /** Bearer token GET /metrics requires (undefined: open). */
  metricsToken?: string;
  /** Queues shown in the operator dashboard: fixed, or read again as the dashboard is used (matcher queues come and go). */
  dashboardQueues: Queue[] | DashboardQueues;
  readiness: ReadinessProbe;
  /** The families' route plugins, built by the composition root from the services. */
  routes: FastifyPluginAsync[];
  trustProxy?: boolean | number | string;
  bodyLimit?: number;
  /** Whole-request deadline in ms (default 30 s). */
  requestTimeoutMs?: number;
  /** Open connections per peer address (default 256; 0 = no cap). */
  maxConnectionsPerClient?: number;
  /** The operators' audit log; every state-changing admin request is recorded in it. */
  audit?: AuditLog;
  /** Who operators are (accounts, sessions, login throttle): every admin path asks it. Absent: the admin token alone. */
  operators?: OperatorAccess;
  /** What the Nodes page shows (nodes, matchers, queues); without it there is no Nodes page. */
  nodes?: () => Promise<NodesOverview>;
}

/** A hop count trusts that many proxies nearest to us (Fastify's types take it as a function). */
function trustProxySetting(value: boolean | number | string): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    // Fastify's two lines per request (830 MB of logs for 2.27M requests) give way to one line
    // from installRequestLog: errors and slow requests at info and above, the rest at debug.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustProxySetting(deps.trustProxy ?? false),
    bodyLimit: deps.bodyLimit ?? 256 * 1024,
    // A client sending 1 byte per 10 s must not hold a socket for minutes: headers within 10 s,
    // the whole request within requestTimeoutMs, idle keep-alive sockets closed after 5 s.
    requestTimeout: deps.requestTimeoutMs ?? 30_000,
    connectionTimeout: (deps.requestTimeoutMs ?? 30_000) * 2,
    keepAliveTimeout: 5_000,
    // Node checks those deadlines every connectionsCheckingInterval (default 30 s): check each second.
    http: {
      headersTimeout: Math.min(10_000, deps.requestTimeoutMs ?? 30_000),
      requestTimeout: deps.requestTimeoutMs ?? 30_000,
      connectionsCheckingInterval: 1_000,
    },
    requestIdHeader: 'x-request-id',
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
  });
  // The per-request child logger is made only for a request that writes a line (request-logger.ts).
  makeRequestLoggersLazy(app.log);
  installValidators(app);
  installStorableTextGuard(app);
  capConnectionsPerClient(app.server, deps.maxConnectionsPerClient ?? 256);
  installErrorHandlers(app);
  // Before every route: each admin path learns its caller and role here (operator-auth.ts).
  const operators = deps.operators ?? createOperatorAccess(undefined, deps.adminToken, DEFAULT_SESSION_SETTINGS);
  const operatorHooks = registerOperatorAuth(app, operators);
  // The operator's CSRF check and page decoration, then the audit's row (when there is an audit log):
  // one preHandler and one onSend hook, in that order (hook-pairs.ts), first of each route's own.
  // Every part acts only for a caller operator-auth identified (request.operator, set on admin paths
  // alone), so only a route that can match an admin path, and the not-found handler, take them:
  // /health and every other route skip both stages. Any other request passes them on one field read.
  const parts = deps.audit ? [operatorHooks, auditHooks(deps.audit)] : [operatorHooks];
  const operatorPreHandler = operatorStage(chainPreHandlers(parts.map((p) => p.preHandler)));
  const operatorOnSend = operatorSendStage(chainOnSend(parts.map((p) => p.onSend)));
  app.addHook('onRoute', (route) => {
    if (!mayServeAdminPath(route.url)) return;
    route.preHandler = [operatorPreHandler as preHandlerHookHandler, ...listed(route.preHandler)];
    route.onSend = [operatorOnSend as onSendHookHandler, ...listed(route.onSend)];
  });
  // WebSocket upgrades go through the router (rate limits, hooks) before a route takes them;
  // registered before every route so an upgrade to a plain HTTP route is closed, not left open.
  // Frames over the documented 4 KB are refused by ws itself (close 1009) before being buffered.
  // Its two global hooks run inside ours below, for upgrade requests only (ws/websocket.plugin.ts).
  const upgrades = await registerWebsocket(app, {
    options: { maxPayload: WS_LIMITS.maxMessageBytes },
    // ws closes the socket itself on protocol and socket errors (1009 for a big frame); an error
    // thrown by a route's handler leaves it open, so end that one here.
    // On shutdown every client is told to reconnect elsewhere (1001) rather than left with 1005.
    preClose(this: FastifyInstance, done) {
      for (const client of this.websocketServer.clients) client.close(1001, 'server shutting down');
      this.websocketServer.close();
      done();
    },
    errorHandler: (err, socket, request) => {
      request.log.debug({ err }, 'websocket error');
      if (socket.readyState === socket.OPEN) socket.terminate();
    },
  });
  // One global onRequest hook: the upgrade mark (first, so an upgrade refused by any hook still
  // loses its socket once answered), then the operator check.
  app.addHook('onRequest', (request, reply, done) => {
    if (upgradeAsked(request)) upgrades.opened(request, reply);
    operatorHooks.onRequest(request, reply, done);
  });
  // One onResponse hook per request: the request log line, the latency metric, and an answered
  // upgrade's socket closed.
  const observeLatency = latencyObserver(deps.metrics);
  installRequestLog(app, (request, reply, elapsedMs) => {
    if (request.ws) upgrades.answered(request, reply);
    observeLatency(request, reply, elapsedMs);
  });
  await registerOpenApi(app, deps.version);
  registerRateLimit(app, { redis: deps.redis, ...deps.rateLimit });
  // As before the guard moved into routes: the text guard, then the limit (no route's onRequest runs here).
  // An operator's request to an unknown admin path is still checked and audited: the operator stages
  // run here too (Fastify takes any lifecycle hook from these options; its types list two).
  const notFoundHooks = {
    preValidation: storableTextGuard,
    preHandler: [operatorPreHandler, app.rateLimit()],
    onSend: operatorOnSend,
  };
  app.setNotFoundHandler(notFoundHooks as Parameters<FastifyInstance['setNotFoundHandler']>[0] & object, notFoundHandler);
  await registerMetrics(app, deps.metrics, deps.metricsToken, { observeRequests: false });
  await app.register(systemRoutes, { readiness: deps.readiness, version: deps.version });
  await registerDashboard(app, deps.dashboardQueues, operators);
  if (deps.audit) await app.register(auditRoutes(deps.audit));
  if (deps.nodes) await app.register(nodesRoutes(deps.nodes));
  for (const routes of deps.routes) await app.register(routes);
  return app;
}
