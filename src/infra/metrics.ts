/**
 * The daemon's Prometheus registry. One per process (tests create their own), so the HTTP
 * facade, the workers and the queue-depth collector report into the same place.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type QueueDepthSource = () => Promise<Array<{ queue: string; state: string; count: number }>>;

export interface DaemonMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  jobOutcomes: Counter<'queue' | 'job' | 'outcome'>;
  jobDuration: Histogram<'queue' | 'job'>;
  processErrors: Counter<'kind'>;
  setQueueDepthSource(source: QueueDepthSource): void;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): DaemonMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  let source: QueueDepthSource | undefined;
  new Gauge({
    name: 'pmx_queue_jobs',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      if (!source) return;
      this.reset();
      for (const { queue, state, count } of await source()) this.set({ queue, state }, count);
    },
  });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'pmx_http_request_duration_seconds',
      help: 'HTTP request latency',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobOutcomes: new Counter({
      name: 'pmx_jobs_total',
      help: 'Finished jobs by outcome',
      labelNames: ['queue', 'job', 'outcome'],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'pmx_job_duration_seconds',
      help: 'Job processing time',
      labelNames: ['queue', 'job'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: [registry],
    }),
    processErrors: new Counter({
      name: 'pmx_process_errors_total',
      help: 'Stray errors caught by the process guard (unhandled rejections, uncaught exceptions)',
      labelNames: ['kind'],
      registers: [registry],
    }),
    setQueueDepthSource(next) {
      source = next;
    },
  };
}
