/**
 * One side of bench/health-cpu.ts, in a process of its own: `ours` (buildApp wired as the daemon
 * wires it: real Redis rate limits, SQLite audit log and operators, metrics, the request log at
 * `warn`; /health is the only route it needs), `floor` (support/floor-app.ts) or `bare` (a bare
 * Fastify route), each answering /health's bytes.
 *
 * `listen`: prints its base URL as one line and serves until stdin closes. `inject`: runs
 * `trials` trials of `per` sequential `GET /health` injections and prints, as one JSON line, the
 * CPU µs per request of each trial; no socket, so no kernel time, only the app's own work plus
 * light-my-request's (the same for every side).
 */
import path from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import Fastify, { type FastifyInstance } from 'fastify';
import { openSqlite } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';
import { buildApp } from '../../src/api/app.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { createAuditLog } from '../../src/services/operator-audit.service.js';
import { createOperatorAccess, DEFAULT_SESSION_SETTINGS } from '../../src/services/operators/operator-access.js';
import { tempDir } from '../../test/helpers/databases.js';
import { floorApp } from './floor-app.js';

const [mode = 'ours', how = 'listen', body = '{}', trials = '40', per = '2000'] = process.argv.slice(2);
const reply = { path: '/health', method: 'GET' as const, status: 200, contentType: 'application/json; charset=utf-8', body };
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

async function ours(): Promise<FastifyInstance> {
  const db = openSqlite(path.join(tempDir('pmx-health-cpu-'), 'api.db'));
  await migrateToLatest(db.db);
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  return buildApp({
    log: pino({ level: 'warn' }, pino.destination('/dev/null')),
    version: 'bench',
    redis,
    rateLimit: { readPerMinute: 1_000_000_000, writePerMinute: 1_000_000_000, nameSpace: `pmxbench:${process.pid}` },
    metrics: createMetrics(),
    adminToken: ADMIN_TOKEN,
    dashboardQueues: [],
    readiness: async () => ({}),
    routes: [],
    maxConnectionsPerClient: 0,
    audit: createAuditLog(db.db),
    operators: createOperatorAccess(db.db, ADMIN_TOKEN, DEFAULT_SESSION_SETTINGS),
  });
}

function bare(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get(reply.path, async (_req, r) => r.status(reply.status).type(reply.contentType).send(reply.body));
  return app;
}

function injectOnce(app: FastifyInstance): Promise<void> {
  return new Promise((resolve, reject) =>
    app.inject({ method: 'GET', url: '/health', remoteAddress: '127.0.0.1' }, (err, res) =>
      err ? reject(err) : res!.statusCode === 200 ? resolve() : reject(new Error(`status ${res!.statusCode}`)),
    ),
  );
}

const app = mode === 'ours' ? await ours() : mode === 'floor' ? floorApp([reply]) : bare();
if (how === 'inject') {
  await app.ready();
  const perTrial: number[] = [];
  for (let t = 0; t < Number(trials); t++) {
    const before = process.cpuUsage();
    for (let i = 0; i < Number(per); i++) await injectOnce(app);
    const used = process.cpuUsage(before);
    perTrial.push((used.user + used.system) / Number(per));
  }
  process.stdout.write(`${JSON.stringify(perTrial)}\n`);
  process.exit(0);
}
process.stdout.write(`${await app.listen({ host: '127.0.0.1', port: 0 })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
