/**
 * One log line per request, after the answer: 5xx at error (the error handler logged the cause),
 * 4xx and requests slower than a second at info, everything else at debug. At the default `info`
 * level a healthy, busy API writes nothing per request; `LOG_LEVEL=debug` shows every request.
 * The hook is synchronous and builds the line only when it will be written: it runs on every
 * request, so it costs what Fastify's own plugins cost.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const SLOW_MS = 1_000;

type LevelAware = { isLevelEnabled?(level: string): boolean };

/**
 * `observe`: more per-request bookkeeping run in the same hook (the latency metric), so a request
 * pays one onResponse hook for both.
 */
export function installRequestLog(
  app: FastifyInstance,
  observe?: (request: FastifyRequest, reply: FastifyReply, elapsedMs: number) => void,
): void {
  const base = app.log as unknown as LevelAware;
  app.addHook('onResponse', (request, reply, done) => {
    // Read once: Fastify's getter reads the clock on every call.
    const elapsed = reply.elapsedTime;
    observe?.(request, reply, elapsed);
    const status = reply.statusCode;
    const ms = Math.round(elapsed * 10) / 10;
    const level = status >= 500 ? 'error' : status >= 400 || ms >= SLOW_MS ? 'info' : 'debug';
    if (base.isLevelEnabled?.(level) !== false) {
      const line = { method: request.method, url: request.url.slice(0, 200), status, ms, ip: request.ip };
      request.log[level](line, level === 'error' ? 'request failed' : 'request answered');
    }
    done();
  });
}
