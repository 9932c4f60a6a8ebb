/**
 * One log line per request at most: nothing at info for a fast 200, one line for a 4xx, and
 * every request at debug. Each line carries the request's id, and the per-request child logger
 * is made only for a request that writes one (request-logger.ts).
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL, uniquePrefix, deleteKeys } from '../helpers/redis.js';

type Line = Record<string, unknown>;

async function linesFor(level: 'info' | 'debug', urls: string[]): Promise<Line[]> {
  return (await run(level, urls)).lines;
}

async function run(level: 'info' | 'debug', urls: string[]): Promise<{ lines: Line[]; all: Line[]; children: number }> {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const prefix = uniquePrefix('reqlog');
  const redis = new Redis(TEST_REDIS_URL);
  const log = pino({ level }, sink);
  // Counts the child loggers made (Fastify asks for one per request; we make it only when used).
  let children = 0;
  const child = log.child.bind(log);
  log.child = ((...args: Parameters<typeof log.child>) => {
    children++;
    return child(...args);
  }) as typeof log.child;
  const app = await buildApp({
    log,
    version: 'test',
    redis,
    rateLimit: { readPerMinute: 1000, writePerMinute: 1000, nameSpace: prefix },
    metrics: createMetrics(),
    adminToken: 'x'.repeat(20),
    dashboardQueues: [],
    readiness: async () => ({}),
    routes: [],
  });
  try {
    app.get('/fails', async (request) => {
      request.log.warn({ step: 'handler' }, 'about to fail');
      throw new Error('boom');
    });
    await app.ready();
    children = 0; // plugins may make their own at start; only the requests' count here
    for (const [i, url] of urls.entries()) await app.inject({ method: 'GET', url, headers: { 'x-request-id': `req-${i}` } });
  } finally {
    await app.close();
    redis.disconnect();
    await deleteKeys(prefix);
  }
  const answered = lines.filter((l) => l.msg === 'request answered' || l.msg === 'incoming request' || l.msg === 'request completed');
  return { lines: answered, all: lines, children };
}

describe('request log', () => {
  it('at info: no line for a fast 200, one line for a 404', async () => {
    const lines = await linesFor('info', ['/health', '/health', '/nope']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request answered', status: 404, method: 'GET', url: '/nope' });
  });

  it('at debug: exactly one line per request', async () => {
    const lines = await linesFor('debug', ['/health', '/health', '/nope']);
    expect(lines.map((l) => l.status)).toEqual([200, 200, 404]);
  });

  it('makes no per-request child logger for a request that writes nothing', async () => {
    const quiet = await run('info', ['/health', '/health', '/health']);
    expect(quiet.all).toEqual([]);
    expect(quiet.children).toBe(0);
    const loud = await run('info', ['/health', '/nope']);
    expect(loud.children).toBe(1);
  });

  it('every line a request writes carries its id, as before', async () => {
    const { all } = await run('info', ['/nope', '/fails']);
    expect(all.find((l) => l.status === 404)).toMatchObject({ reqId: 'req-0', url: '/nope' });
    const failing = all.filter((l) => l.reqId === 'req-1');
    expect(failing.map((l) => l.msg)).toEqual(expect.arrayContaining(['about to fail', 'request failed']));
    expect(failing.find((l) => l.msg === 'about to fail')).toMatchObject({ level: 40, step: 'handler' });
    expect(failing.find((l) => l.msg === 'request failed')).toMatchObject({ level: 50, status: 500 });
  });
});
