/**
 * Requests to plan a market's settlement, kept in Redis until the market's planning job takes
 * them. The job is deduplicated per market in the queue, and BullMQ drops a request while the job
 * is active: fills matched after the job's last read would wait for the sweep (2 s). So whoever
 * asks (the matcher that committed fills, the keeper after a landing) notes the request here
 * first, and the job takes the requests when it starts and plans again before it ends if new ones
 * came meanwhile. In Redis, not in memory: in a deployment of several processes the matcher (API
 * node) and the keeper (worker) are different processes, and there an in-memory note never
 * reached the job. What is left to the sweep: a request that lands between the job's last take
 * and BullMQ marking the job complete.
 */
import type { Redis } from 'ioredis';

/** A note nobody takes (its market has nothing left to settle) expires on its own. */
const REQUEST_TTL_SEC = 3_600;

export class PlanRequests {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(marketId: string): string {
    return `${this.prefix}:clob:settle-request:${marketId}`;
  }

  /** Asks for a market's planning: the note first, then the job, which a running job's deduplication may drop (it then finds the note). */
  async request(marketId: string, enqueue: (marketId: string) => Promise<unknown>): Promise<void> {
    await this.note(marketId);
    await enqueue(marketId);
  }

  async note(marketId: string): Promise<void> {
    await this.redis.set(this.key(marketId), '1', 'EX', REQUEST_TTL_SEC);
  }

  /** Whether a request for the market came since the last take (and clears it). */
  async take(marketId: string): Promise<boolean> {
    return (await this.redis.del(this.key(marketId))) === 1;
  }
}
