/**
 * Global hooks of several plugins run as one Fastify hook per stage: Fastify pays a hook runner
 * step for each hook of each request, and the operator and audit hooks have nothing to do on any
 * request but an operator's (issue 31: every route paid 9 hook calls, 2 of them onSend). Each part
 * keeps its order and its contract: one that answers (a refusal) without calling `done` ends the
 * chain there, as Fastify stops at a hook that sent the reply; an error goes to `done` at once.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

export type PreHandlerPart = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;
/** The same shape: an onRequest hook's. */
export type OnRequestPart = PreHandlerPart;
export type OnSendPart = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err?: Error | null, payload?: unknown) => void,
) => void;

export function chainPreHandlers(parts: PreHandlerPart[]): PreHandlerPart {
  return parts.reduceRight<PreHandlerPart>(
    (rest, part) => (request, reply, done) => part(request, reply, (err) => (err ? done(err) : rest(request, reply, done))),
    (_request, _reply, done) => done(),
  );
}

export function chainOnSend(parts: OnSendPart[]): OnSendPart {
  return parts.reduceRight<OnSendPart>(
    (rest, part) => (request, reply, payload, done) =>
      // As Fastify's onSend runner: a part that hands back no payload leaves it as it was.
      part(request, reply, payload, (err, next) => (err ? done(err) : rest(request, reply, next === undefined ? payload : next, done))),
    (_request, _reply, payload, done) => done(null, payload),
  );
}

const AFTER_RATE_LIMIT = Symbol('runs after the rate limit');

/**
 * Marks a route's onRequest hook as one that must run after the rate limit: the limit's onRoute
 * (rate-limit.plugin.ts) places it behind the limit, in the limit's own hook, so that a request
 * pays one hook step for both.
 */
export function afterRateLimit<T extends OnRequestPart>(hook: T): T {
  return Object.assign(hook, { [AFTER_RATE_LIMIT]: true });
}

export function runsAfterRateLimit(hook: unknown): boolean {
  return typeof hook === 'function' && (hook as { [AFTER_RATE_LIMIT]?: boolean })[AFTER_RATE_LIMIT] === true;
}

/** A route option's hooks as a list (Fastify takes one hook or an array). */
export function listed<T>(hooks: T | T[] | undefined): T[] {
  return Array.isArray(hooks) ? hooks : hooks ? [hooks] : [];
}

/** The operator parts' preHandler stage: a request operator-auth identified no caller on passes on one field read. */
export function operatorStage(chain: PreHandlerPart): PreHandlerPart {
  return (request, reply, done) => (request.operator ? chain(request, reply, done) : done());
}

/** The same for onSend: the payload passes as it is. */
export function operatorSendStage(chain: OnSendPart): OnSendPart {
  return (request, reply, payload, done) => (request.operator ? chain(request, reply, payload, done) : done(null, payload));
}
