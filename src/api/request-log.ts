/**
 * One log line per request, after the answer: 5xx at error (the error handler logged the cause),
 * 4xx and requests slower than a second at info, everything else at debug. At the default `info`
 * level a healthy, busy API writes nothing per request; `LOG_LEVEL=debug` shows every request.
 */
import type { FastifyInstance } from 'fastify';

const SLOW_MS = 1_000;

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = { method: request.method, url: request.url.slice(0, 200), status, ms, ip: request.ip };
    if (status >= 500) request.log.error(line, 'request failed');
    else if (status >= 400 || ms >= SLOW_MS) request.log.info(line, 'request answered');
    else request.log.debug(line, 'request answered');
  });
}
