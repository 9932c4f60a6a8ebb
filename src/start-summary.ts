/**
 * The one start line an operator reads: which roles this process runs and, with the api role,
 * where every page is (docs, console pages, metrics). Without it an API-less worker looks idle.
 */
import type { Config } from '../config/config.js';

export const CONSOLE_PAGES = [
  '/admin',
  '/admin/markets',
  '/admin/orderbook',
  '/admin/money',
  '/admin/nodes',
  '/admin/queues',
  '/admin/audit',
] as const;

export function startSummary(config: Config, url: string | undefined): Record<string, unknown> {
  const chain =
    config.chain.kind === 'rpc' || !config.roles.includes('ledger')
      ? { chain: config.chain.kind, rpcUrl: config.chain.rpcUrl ? new URL(config.chain.rpcUrl).origin : undefined }
      : {
          chain: 'embedded (this process runs the ledger)',
          ledger: `${config.chain.ledgerHost}:${config.chain.ledgerRpcPort}`,
          faucet: config.chain.ledgerFaucet ? 'on' : 'off',
        };
  if (url === undefined) return { roles: config.roles, ...chain, http: 'none (no api role)' };
  return {
    roles: config.roles,
    ...chain,
    url,
    docs: `${url}/docs`,
    console: CONSOLE_PAGES.map((page) => `${url}${page}`),
    metrics: `${url}/metrics`,
    ready: `${url}/ready`,
  };
}
