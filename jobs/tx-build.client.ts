/**
 * The transaction-building pattern: a write endpoint enqueues a `tx.build` job and awaits its
 * result. Builders return either a value or a serialized DomainError (a refusal is a result, not
 * a job failure, so it is never retried). If no worker answers within the timeout the caller
 * gets a DomainError of kind `unavailable` (503) and the job is withdrawn if it has not started.
 */
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { DomainError, type SerializedDomainError } from '../src/domain/errors.js';
import type { BuilderCatalog, TxBuilderCatalog, TxBuildKind, TxBuildParams, TxBuildPort, TxBuildResult } from '../src/services/tx-build/tx-build.port.js';
import type { JobQueues } from './queues.js';

export type TxBuildOutcome<T = unknown> = { ok: true; value: T } | { ok: false; error: SerializedDomainError };

export class TxBuildClient<C extends BuilderCatalog = TxBuilderCatalog> implements TxBuildPort<C> {
  private readonly events: QueueEvents;

  constructor(
    private readonly queues: JobQueues,
    connection: Redis,
    private readonly timeoutMs: number,
  ) {
    this.events = new QueueEvents('tx-build', { connection, prefix: queues.prefix });
  }

  /** Resolves when the QueueEvents stream is being read, so no completion can be missed. */
  async ready(): Promise<void> {
    await this.events.waitUntilReady();
  }

  async request<K extends TxBuildKind<C>>(kind: K, params: TxBuildParams<K, C>): Promise<TxBuildResult<K, C>> {
    let job;
    try {
      job = await this.queues.enqueue('tx.build', { kind, params: params as unknown as Record<string, unknown> });
    } catch (error) {
      throw new DomainError('unavailable', 'QUEUE_UNAVAILABLE', `The job queue is unavailable: ${(error as Error).message}`);
    }
    let outcome: TxBuildOutcome<TxBuildResult<K, C>>;
    try {
      outcome = (await job.waitUntilFinished(this.events, this.timeoutMs)) as TxBuildOutcome<TxBuildResult<K, C>>;
    } catch (error) {
      const message = (error as Error).message ?? '';
      if (/timed out/i.test(message)) {
        await job.remove().catch(() => undefined); // only succeeds while the job is still waiting
        throw new DomainError('unavailable', 'WORKERS_UNAVAILABLE', `No worker built the transaction within ${this.timeoutMs} ms; try again`);
      }
      throw new Error(`transaction builder failed: ${message}`, { cause: error });
    }
    if (!outcome.ok) throw DomainError.fromJSON(outcome.error);
    return outcome.value;
  }

  async close(): Promise<void> {
    await this.events.close();
  }
}
