/**
 * The composition root: load and validate the configuration, start the daemon, and shut it down
 * gracefully on SIGINT/SIGTERM (exit 0), or exit non-zero with a clear message when it cannot
 * start. Nothing else in the project has side effects at import time.
 */
// First: keeps the per-request objects' hidden classes shared before any schema is compiled (hot-shapes.ts).
import './infra/hot-shapes.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { startDaemon } from './daemon.js';
import { RedisBinaryMissingError } from './infra/embedded-redis.js';
import { createLogger } from './infra/logger.js';
import { PortInUseError } from './infra/port-in-use.js';
import { installProcessGuard } from './infra/process-guard.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config);

  let daemon;
  try {
    daemon = await startDaemon(config, log);
  } catch (error) {
    if (error instanceof RedisBinaryMissingError || error instanceof PortInUseError) log.fatal(error.message);
    else log.fatal({ err: error }, 'daemon failed to start');
    log.flush?.();
    process.exit(1);
  }

  installProcessGuard({ log, count: (kind) => daemon.metrics.processErrors.inc({ kind }) });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    await daemon.stop();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

await main();
