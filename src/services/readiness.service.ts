/**
 * The readiness probe behind GET /ready: the database answers, Redis answers, the queue pipeline
 * ran a heartbeat recently (a worker took a job and wrote to the database), the chain answers
 * when this process talks to one, and whatever the roles and features of this process add (the
 * orderbook: every active market has a live matcher). Each check names the role it serves:
 * `process` for what this process needs itself, `api` for what its requests need elsewhere.
 */
import { sql, type Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import { newestPipelineBeatAt } from '../../db/repositories/daemon-nodes.repository.js';
import type { Database } from '../../db/schema.js';

export interface CheckResult {
  ok: boolean;
  /** Whose check: `process`, or the role that needs it (`api`, `ledger`, `matcher`…). */
  role?: string;
  detail?: string;
  latencyMs?: number;
}

export type ReadinessProbe = () => Promise<Record<string, CheckResult>>;

export interface ReadinessDeps {
  db: Kysely<Database>;
  redis: Redis;
  /** Max age of the newest heartbeat before workers count as down; undefined = no workers expected. */
  heartbeatMaxAgeMs?: number;
  chainSlot?: () => Promise<number>;
  /** Role of the chain check: `ledger` when this process runs it. */
  chainRole?: string;
  /** More checks by name: each throws its reason, or returns a detail. */
  extra?: Record<string, ReadinessCheck>;
}

export interface ReadinessCheck {
  role: string;
  run(): Promise<string | undefined>;
}

async function timed(fn: () => Promise<string | undefined>, role = 'process'): Promise<CheckResult> {
  const started = performance.now();
  try {
    const detail = await Promise.race([
      fn(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out after 2000 ms')), 2_000).unref()),
    ]);
    return { ok: true, role, latencyMs: Math.round(performance.now() - started), ...(detail ? { detail } : {}) };
  } catch (error) {
    return { ok: false, role, detail: (error as Error).message, latencyMs: Math.round(performance.now() - started) };
  }
}

export function createReadinessProbe(deps: ReadinessDeps): ReadinessProbe {
  return async () => {
    // All at once: a dependency that is away costs one timeout (2 s), not one per check that needs it.
    const pending: Array<[string, Promise<CheckResult>]> = [
      [
        'database',
        timed(async () => {
          await sql`select 1`.execute(deps.db);
          return undefined;
        }),
      ],
      [
        'redis',
        timed(async () => {
          await deps.redis.ping();
          return undefined;
        }),
      ],
    ];
    if (deps.heartbeatMaxAgeMs !== undefined) {
      const maxAge = deps.heartbeatMaxAgeMs;
      pending.push([
        'workers',
        timed(async () => {
          const newest = await newestPipelineBeatAt(deps.db);
          if (!newest) throw new Error('no heartbeat processed yet');
          const age = Date.now() - Date.parse(newest);
          if (age > maxAge) throw new Error(`newest heartbeat is ${Math.round(age / 1000)} s old`);
          return `newest heartbeat ${Math.round(age)} ms ago`;
        }, 'api'),
      ]);
    }
    if (deps.chainSlot) {
      const slot = deps.chainSlot;
      pending.push(['chain', timed(async () => `slot ${await slot()}`, deps.chainRole)]);
    }
    for (const [name, check] of Object.entries(deps.extra ?? {})) pending.push([name, timed(() => check.run(), check.role)]);
    const results = await Promise.all(pending.map(([, p]) => p));
    return Object.fromEntries(pending.map(([name], i) => [name, results[i]!]));
  };
}
