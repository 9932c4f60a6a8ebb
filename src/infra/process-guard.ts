/**
 * The last line of defence: an error nobody caught must not end a daemon that holds users'
 * money in flight. Every request, job and listener already runs inside its own try boundary, so
 * what arrives here is a stray promise or callback (a dropped Redis command, a library's
 * background timer) whose failure leaves no half-written state behind: the system of record is
 * the database, written in transactions. It is logged with its stack, counted in
 * `pmx_process_errors_total{kind}` (alert on any increase), and the process keeps serving.
 *
 * What stays fatal: a storm (more than `maxPerMinute` in a minute), which means something is
 * broken in a loop and a supervisor's restart is the better cure.
 */
import type { Logger } from 'pino';

export interface ProcessGuardOptions {
  log: Logger;
  count(kind: 'unhandled_rejection' | 'uncaught_exception'): void;
  maxPerMinute?: number;
  exit?: (code: number) => void;
}

export function installProcessGuard(options: ProcessGuardOptions): () => void {
  const { log, count, maxPerMinute = 100, exit = (code) => process.exit(code) } = options;
  const recent: number[] = [];
  const handle = (kind: 'unhandled_rejection' | 'uncaught_exception', error: unknown) => {
    count(kind);
    log.error({ err: error, kind }, `process guard: ${kind.replace('_', ' ')} caught; the daemon keeps serving`);
    const now = Date.now();
    recent.push(now);
    while (recent.length > 0 && recent[0]! < now - 60_000) recent.shift();
    if (recent.length > maxPerMinute) {
      log.fatal({ perMinute: recent.length }, 'process guard: error storm; exiting for a clean restart');
      log.flush?.();
      exit(70);
    }
  };
  const onRejection = (reason: unknown) => handle('unhandled_rejection', reason);
  const onException = (error: Error) => handle('uncaught_exception', error);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
