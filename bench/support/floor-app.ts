/**
 * The floor of bench/http-table's HTTP rows (issue 31): a bare Fastify 5 app answering each row's
 * exact bytes, plus the cheapest form of each per-request duty the daemon may not drop, so that
 * no implementation of those duties can beat it:
 * - the rate limit: a count per route and client in a local Map (no Redis, no window, no other
 *   process to agree with) and the three headers every answer carries (`x-ratelimit-limit`,
 *   `-remaining`, `-reset`);
 * - the latency metric: one tally per (method, route, status) with its bucket found by a scan;
 * - the request log: the level check that decides whether a line is written (none at `warn`).
 * It leaves out what the daemon also does per request and could be argued away (the operator and
 * audit hooks' checks, the storable-text guard, serializing the answer, the request id): so it is
 * a lower bound on the daemon's cost, not an estimate of it. Runs in the baselines' process.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import type { BareReply } from './bare-server.js';

const LIMIT = 1_000_000;
const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export async function startFloor(replies: BareReply[]): Promise<string> {
  return floorApp(replies).listen({ host: '127.0.0.1', port: 0 });
}

/** The floor app itself, not listening (bench/health-cpu.ts also drives it with inject). */
export function floorApp(replies: BareReply[]): FastifyInstance {
  const app = Fastify({ logger: false });
  const counts = new Map<string, number>();
  const tallies = new Map<string, number[]>();
  const log = pino({ level: 'warn' }, pino.destination('/dev/null'));
  app.addHook('onRequest', (request, reply, done) => {
    const key = `READ:${request.routeOptions.url}:ip:${request.ip}`;
    const current = (counts.get(key) ?? 0) + 1;
    counts.set(key, current);
    reply.header('x-ratelimit-limit', LIMIT);
    reply.header('x-ratelimit-remaining', LIMIT - current);
    reply.header('x-ratelimit-reset', 60);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const key = `${request.method} ${request.routeOptions.url} ${reply.statusCode}`;
    let tally = tallies.get(key);
    if (!tally) tallies.set(key, (tally = new Array<number>(BOUNDS.length + 1).fill(0)));
    const seconds = reply.elapsedTime / 1000;
    let bucket = 0;
    while (bucket < BOUNDS.length && seconds > BOUNDS[bucket]!) bucket++;
    tally[bucket]!++;
    if (log.isLevelEnabled('debug')) log.debug({ url: request.url, status: reply.statusCode }, 'request answered');
    done();
  });
  for (const r of replies) {
    app.route({ method: r.method, url: r.path, handler: async (_req, reply) => reply.status(r.status).type(r.contentType).send(r.body) });
  }
  return app;
}
