/**
 * One log line per request at most: nothing at info for a fast 200, one line for a 4xx, and
 * every request at debug.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL, uniquePrefix, deleteKeys } from '../helpers/redis.js';

async function linesFor(level: 'info' | 'debug', urls: string[]): Promise<Array<Record<string, unknown>>> {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const prefix = uniquePrefix('reqlog');
  const redis = new Redis(TEST_REDIS_URL);
  const app = await buildApp({
    log: pino({ level }, sink),
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
    for (const url of urls) await app.inject({ method: 'GET', url });
  } finally {
    await app.close();
    redis.disconnect();
    await deleteKeys(prefix);
  }
  return lines.filter((l) => l.msg === 'request answered' || l.msg === 'incoming request' || l.msg === 'request completed');
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
});
