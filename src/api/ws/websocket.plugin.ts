/**
 * @fastify/websocket without its two global hooks on every route. The plugin adds an onRequest
 * hook (is this request an upgrade? `request.ws`) and an onResponse hook (an upgrade answered over
 * HTTP instead, a 404 or a 429, has its socket destroyed): two hook-runner steps on every plain
 * HTTP request (issue 31). Here they are kept as the plugin registers, and buildApp calls them from
 * its own global hooks, for a request that asks to upgrade only (`upgradeAsked`). Everything else
 * the plugin does (the upgrade listener, the route handler wrapper that closes an upgrade to a
 * plain HTTP route, the error handler, preClose) is registered as it was.
 */
import websocket, { type WebsocketPluginOptions } from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type SyncHook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

export interface UpgradeHooks {
  /** The plugin's onRequest part: marks an upgrade (`request.ws`). */
  opened(request: FastifyRequest, reply: FastifyReply): void;
  /** The plugin's onResponse part: an upgrade that got an HTTP answer loses its socket. */
  answered(request: FastifyRequest, reply: FastifyReply): void;
}

const noop = () => undefined;

/**
 * Node hands the plugin only requests with an `Upgrade` header (its 'upgrade' event), and the
 * plugin's injectWS sets one: a request without it cannot be an upgrade, and its `request.ws`
 * stays at the decorated `null` (false-like, as the plugin's `false`).
 */
export function upgradeAsked(request: FastifyRequest): boolean {
  return request.headers.upgrade !== undefined;
}

/** Registers the plugin on `app` itself (it is a fastify-plugin: no scope of its own) with its two global hooks held back. */
export async function registerWebsocket(app: FastifyInstance, options: WebsocketPluginOptions): Promise<UpgradeHooks> {
  const held: { onRequest?: SyncHook; onResponse?: SyncHook } = {};
  const addHook = app.addHook;
  app.addHook = function (this: FastifyInstance, name: string, hook: SyncHook) {
    if ((name === 'onRequest' || name === 'onResponse') && !held[name]) {
      held[name] = hook;
      return this;
    }
    return (addHook as (name: string, hook: SyncHook) => FastifyInstance).call(this, name, hook);
  } as typeof app.addHook;
  try {
    // Synchronous: it calls back before returning (no hook is added later).
    await new Promise<void>((resolve, reject) => websocket(app, options, (err?: Error) => (err ? reject(err) : resolve())));
  } finally {
    app.addHook = addHook;
  }
  const { onRequest, onResponse } = held;
  if (!onRequest || !onResponse)
    throw new Error('@fastify/websocket no longer adds its onRequest and onResponse hooks: review src/api/ws/websocket.plugin.ts');
  return {
    opened: (request, reply) => onRequest(request, reply, noop),
    answered: (request, reply) => onResponse(request, reply, noop),
  };
}
