/**
 * Every queue the daemon has, for the operators (bull-board, `pmx_queue_jobs`, the Nodes page):
 * the catalog's fixed queues, and one `matcher-<hash>` queue per matcher process
 * (jobs/matcher-queue.ts), which come and go with those processes. The matcher nodes are read
 * again when the list is older than `maxAgeMs` (at most once per `maxAgeMs`, whoever asks): a
 * live matcher's queue is listed, a gone one's only while it still holds work not done
 * (waiting, active, delayed or failed), so that restarts do not pile up empty queues.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { matcherQueueName } from './matcher-queue.js';
import type { JobQueues } from './queues.js';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

export interface QueueDepth {
  queue: string;
  /** The matcher node (instance id) a `matcher-…` queue belongs to; null for the catalog's queues. */
  node: string | null;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

export interface MatcherNode {
  nodeId: string;
  gone: boolean;
}

export interface QueueDirectoryOptions {
  queues: JobQueues;
  /** The producer connection the matcher queues' clients share (as the catalog's do). */
  connection: Redis;
  /** Matcher processes on record (daemon_nodes), live or gone. */
  matcherNodes(): Promise<MatcherNode[]>;
  maxAgeMs?: number;
}

/** The depths as `pmx_queue_jobs` samples (queue, state, count). */
export function depthSamples(depths: QueueDepth[]): Array<{ queue: string; state: string; count: number }> {
  return depths.flatMap((depth) => STATES.map((state) => ({ queue: depth.queue, state, count: depth[state] })));
}

const pendingWork = (counts: Record<string, number>) =>
  (counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) + (counts.failed ?? 0);

/** How long one queue's counts may take before the queue is left out as unreadable. */
const COUNTS_TIMEOUT_MS = 1_500;

export class QueueDirectory {
  private readonly matchers = new Map<string, { node: string; queue: Queue }>();
  private refreshed: { at: number; run: Promise<void> } | undefined;

  constructor(private readonly options: QueueDirectoryOptions) {}

  /** The catalog's queues, then the matcher queues, fresh within `maxAgeMs`. */
  async list(): Promise<Queue[]> {
    const maxAge = this.options.maxAgeMs ?? 5_000;
    if (!this.refreshed || Date.now() - this.refreshed.at > maxAge) {
      const run = this.refresh();
      this.refreshed = { at: Date.now(), run };
      // A failed read (database or Redis away) keeps the last list; the next ask tries again.
      run.catch(() => (this.refreshed = undefined));
    }
    await this.refreshed.run.catch(() => undefined);
    return [...this.options.queues.queues.values(), ...[...this.matchers.values()].map((m) => m.queue)];
  }

  /**
   * Each queue's jobs by state; fails naming the first queue it could not read. `skipUnreadable`
   * leaves such queues out instead (a metrics scrape then still reports the others).
   */
  async depths(options: { skipUnreadable?: boolean } = {}): Promise<QueueDepth[]> {
    const queues = await this.list();
    const nodeOf = new Map([...this.matchers.values()].map((m) => [m.queue.name, m.node]));
    const read = await Promise.allSettled(
      queues.map(async (queue) => {
        const counts = await this.counts(queue);
        const depth: QueueDepth = {
          queue: queue.name,
          node: nodeOf.get(queue.name) ?? null,
          waiting: 0,
          active: 0,
          delayed: 0,
          failed: 0,
          completed: 0,
        };
        for (const state of STATES) depth[state] = counts[state] ?? 0;
        return depth;
      }),
    );
    const failure = read.find((r) => r.status === 'rejected');
    if (failure && !options.skipUnreadable) throw failure.reason;
    return read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }

  private async refresh(): Promise<void> {
    const keep = new Map<string, string>();
    for (const { nodeId, gone } of await this.options.matcherNodes()) {
      const name = matcherQueueName(nodeId);
      if (!gone || pendingWork(await this.counts(this.queue(name, nodeId))) > 0) keep.set(name, nodeId);
    }
    const before = new Map(this.matchers);
    this.matchers.clear();
    // Listed in the order of the nodes (live ones first); clients of queues no longer listed are closed.
    for (const [name, node] of keep) this.matchers.set(name, before.get(name) ?? { node, queue: this.open(name) });
    for (const [name, { queue }] of before) if (!keep.has(name)) await queue.close();
  }

  /**
   * A queue's jobs by state. A BullMQ client whose first commands failed (a command timeout while
   * the process was busy starting) fails every later one with the same error: a matcher queue's
   * client that fails is dropped, so that the next ask opens a new one.
   */
  private async counts(queue: Queue): Promise<Record<string, number>> {
    try {
      // Bounded: a client whose Redis is away may queue the command until it reconnects.
      return await Promise.race([
        queue.getJobCounts(...STATES),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no answer in ${COUNTS_TIMEOUT_MS} ms`)), COUNTS_TIMEOUT_MS).unref(),
        ),
      ]);
    } catch (error) {
      const matcher = this.matchers.get(queue.name);
      if (matcher?.queue === queue) {
        this.matchers.delete(queue.name);
        this.refreshed = undefined; // the next ask lists it again, with a new client
        await queue.close().catch(() => undefined);
      }
      throw new Error(`${queue.name}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** The client of a matcher queue: the one listed, else a new one (kept by refresh() if listed). */
  private queue(name: string, node: string): Queue {
    let entry = this.matchers.get(name);
    if (!entry) {
      entry = { node, queue: this.open(name) };
      this.matchers.set(name, entry);
    }
    return entry.queue;
  }

  private open(name: string): Queue {
    const queue = new Queue(name, { connection: this.options.connection, prefix: this.options.queues.prefix });
    // Its failures surface through counts() (named in the Nodes view's `unavailable`), not as stray errors.
    queue.on('error', () => undefined);
    return queue;
  }

  async close(): Promise<void> {
    await Promise.all([...this.matchers.values()].map((m) => m.queue.close()));
    this.matchers.clear();
  }
}
