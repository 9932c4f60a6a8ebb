/**
 * pino, JSON by default and pretty when attached to a terminal. Secrets are redacted by path so
 * that a careless `log.info({ req })` can never print a token or key material.
 */
import { pino, type Logger } from 'pino';
import type { Config } from '../../config/config.js';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-payment"]',
  'headers.authorization',
  'headers.cookie',
  'adminToken',
  'token',
  'secretKey',
  'keypair',
  'password',
  '*.adminToken',
  '*.secretKey',
  '*.password',
];

export function createLogger(config: Pick<Config, 'logLevel' | 'logPretty'>): Logger {
  const pretty = config.logPretty ?? Boolean(process.stdout.isTTY);
  return pino({
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  });
}

export type { Logger };
