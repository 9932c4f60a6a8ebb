/**
 * Keeps the hidden classes of the objects every HTTP request builds shared, whatever the rest of
 * the process does (issue 31, twelfth pass).
 *
 * V8 finds the hidden class ("map") of `{}` plus a first property through a transition from the
 * plain-object root map, and keeps at most 1,536 of them. Compiling the daemon's schemas adds one
 * per serializer and validator (fast-json-stringify's `__fjs_root_N`, ajv's generated names, each
 * a key seen once), which fills that list in the whole daemon (not in a small app). Transitions
 * are weak: a major GC drops one when no object of its class is alive at that moment. When that
 * happens to the first key of a per-request object (Node's request headers start with `host`,
 * Fastify's logger bindings with `reqId`, every reply's headers with our `x-ratelimit-limit`),
 * V8 can no longer record it, and every request makes fresh maps, descriptor arrays and inline
 * cache handlers for those objects (8 maps per `GET /health`), old-space garbage that only the
 * next major GC frees: the daemon's CPU per request went from ~35 to ~55 µs until then.
 *
 * Holding one live object of each such class for the process's lifetime keeps its transition
 * alive, so the per-request objects share it. Imported first by main.ts (before any schema is
 * compiled) and by app.ts; the field types match the request path's (strings, a small integer),
 * so the classes are the same ones and are never generalised.
 */

/** First keys of the objects each request builds, with a value of the type the request path stores. */
const FIRST_KEYS: ReadonlyArray<[string, string | number]> = [
  ['host', ''], // node:http's request headers (HTTP/1.1 clients send Host first)
  ['reqId', ''], // Fastify's per-request logger bindings ({ [requestIdLogLabel]: id })
  ['x-ratelimit-limit', 0], // the reply's headers: the rate limit's is the first every route sets
];

const anchors: object[] = [];

/** Idempotent: the anchors are made once per process. */
export function keepRequestShapes(): void {
  if (anchors.length > 0) return;
  for (const [key, value] of FIRST_KEYS) {
    const anchor: Record<string, string | number> = {};
    anchor[key] = value;
    anchors.push(anchor);
  }
}

keepRequestShapes();
