/**
 * The transaction-building pattern: a write endpoint enqueues a `tx.build` job and awaits its
 * result. Builders return either a value or a serialized DomainError (a refusal is a result, not
 * a job failure, so it is never retried). If no worker answers within the timeout the caller
 * gets a DomainError of kind `unavailable` (503) and the job is withdrawn if it has not started.
 *
 * In a process that also runs the worker role, builds are handed to this process's own builders
 * directly (`runLocally`), up to a number at once; beyond that they go through the queue as
 * before, so other processes' workers share a burst. Why that keeps what the queue gives a
 * tx.build job: the job is a pure computation whose only consumer is the request waiting for it
 * in this very process (attempts: 1, nothing to resume after a crash: the request dies with
 * it); the BullMQ worker it would reach runs in this same event loop; and the timeout (503) and
 * a bound on concurrent builds hold on both paths. What it skips is four Redis round trips and
 * Lua scripts per build (add, fetch, complete, the completion event): the buy route went from
 * ~350 to several thousand builds per second. Locally run builds do not appear in the dashboard
 * (they are counted in pmx_jobs_total like the others).
 *
 * Parameters are checked against their kind's schema here, before either path (a route that
 * hands a builder the wrong shape is a bug: it fails loudly, as an invalid catalog payload does
 * in `enqueue`), and again by the worker (jobs/processors/tx-build.processor.ts).
 */
import { QueueEvents } from 'bullmq';
import { Compile, type Validator } from 'typebox/compile';
import type { Redis } from 'ioredis';
import type { TSchema } from 'typebox';
import { DomainError, type SerializedDomainError } from '../src/domain/errors.js';
import type {
  BuilderCatalog,
  ParamSchemas,
  TxBuilderCatalog,
  TxBuildKind,
  TxBuildParams,
  TxBuildPort,
  TxBuildResult,
} from '../src/services/tx-build/tx-build.port.js';
import { TxBuildPayload, type JobPayload } from './catalog.js';
import { JobWaitTimeout, waitForJob } from './job-wait.js';
import type { JobQueues } from './queues.js';

const txBuildPayload = Compile(TxBuildPayload);

export type TxBuildOutcome<T = unknown> = { ok: true; value: T } | { ok: false; error: SerializedDomainError };

export interface LocalTxBuild {
  /** Runs one build in this process (the worker's own builders). */
  run(payload: JobPayload<'tx.build'>): Promise<TxBuildOutcome>;
  /** Builds run locally at once; more go through the queue. */
  concurrency: number;
  /** Told of every local build's end (metrics), with its duration. */
  onDone?(outcome: 'completed' | 'failed', ms: number): void;
}

export class TxBuildClient<C extends BuilderCatalog = TxBuilderCatalog> implements TxBuildPort<C> {
  private readonly events: QueueEvents;
  private readonly params: ReadonlyMap<string, Validator>;
  private local: LocalTxBuild | undefined;
  private localInFlight = 0;

  constructor(
    private readonly queues: JobQueues,
    connection: Redis,
    private readonly timeoutMs: number,
    params: ParamSchemas<C>,
  ) {
    this.events = new QueueEvents('tx-build', { connection, prefix: queues.prefix });
    this.params = new Map(Object.entries<TSchema>(params).map(([kind, schema]) => [kind, Compile(schema)]));
  }

  /** Resolves when the QueueEvents stream is being read, so no completion can be missed. */
  async ready(): Promise<void> {
    await this.events.waitUntilReady();
  }

  /** With the worker role in this process: build here, without the queue, up to `concurrency` at once. */
  runLocally(local: LocalTxBuild): void {
    this.local = local;
  }

  async request<K extends TxBuildKind<C>>(kind: K, params: TxBuildParams<K, C>): Promise<TxBuildResult<K, C>> {
    const payload = this.checked(kind, params);
    const outcome =
      this.local && this.localInFlight < this.local.concurrency
        ? await this.buildHere(this.local, payload)
        : await this.buildOnWorker(payload);
    if (!outcome.ok) throw DomainError.fromJSON(outcome.error);
    return outcome.value as TxBuildResult<K, C>;
  }

  async close(): Promise<void> {
    await this.events.close();
  }

  /** The job payload, once the parameters match their kind's schema (and so the catalog's payload). */
  private checked(kind: string, params: unknown): JobPayload<'tx.build'> {
    const validator = this.params.get(kind);
    if (!validator) throw new Error(`invalid payload for job tx.build: no parameter schema for ${kind}`);
    const payload: unknown = { kind, params };
    if (!validator.Check(params) || !txBuildPayload.Check(payload)) {
      const first = validator.Errors(params)[0];
      throw new Error(
        `invalid payload for job tx.build: ${kind} /params${first ? `${first.instancePath} ${first.message}` : ' is not an object'}`,
      );
    }
    return payload;
  }

  private async buildHere(local: LocalTxBuild, payload: JobPayload<'tx.build'>): Promise<TxBuildOutcome> {
    const started = performance.now();
    this.localInFlight++;
    // The slot is held until the build itself ends, even after a timeout has answered its caller.
    const build = local.run(payload);
    build
      .then(
        () => local.onDone?.('completed', performance.now() - started),
        () => local.onDone?.('failed', performance.now() - started),
      )
      .finally(() => this.localInFlight--);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new DomainError('unavailable', 'WORKERS_UNAVAILABLE', `No worker built the transaction within ${this.timeoutMs} ms; try again`),
          ),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([build, timeout]);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new Error(`transaction builder failed: ${(error as Error).message ?? ''}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  private async buildOnWorker(payload: JobPayload<'tx.build'>): Promise<TxBuildOutcome> {
    let job;
    try {
      job = await this.queues.enqueue('tx.build', payload);
    } catch (error) {
      throw new DomainError('unavailable', 'QUEUE_UNAVAILABLE', `The job queue is unavailable: ${(error as Error).message}`);
    }
    try {
      return (await waitForJob(job, this.events, this.timeoutMs)) as TxBuildOutcome;
    } catch (error) {
      const message = (error as Error).message ?? '';
      if (error instanceof JobWaitTimeout) {
        await job.remove().catch(() => undefined); // only succeeds while the job is still waiting
        throw new DomainError(
          'unavailable',
          'WORKERS_UNAVAILABLE',
          `No worker built the transaction within ${this.timeoutMs} ms; try again`,
        );
      }
      throw new Error(`transaction builder failed: ${message}`, { cause: error });
    }
  }
}
