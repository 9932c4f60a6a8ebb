/**
 * The typed REST client: openapi-fetch over the types generated from the daemon's OpenAPI
 * document (src/generated/openapi.ts), so every path, parameter and body of the three families is
 * checked by the compiler: `api.GET('/v2/clob/markets/{id}/orderbook', {params: {path: {id}}})`.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';

export type { paths } from './generated/openapi.js';
export type PmxClient = Client<paths>;

export interface PmxClientOptions {
  /** The daemon's HTTP address, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Family A API key (`X-API-Key`): its own rate-limit bucket. */
  apiKey?: string;
  /** An operator's bearer token, for the `/v2/admin/*` routes. */
  adminToken?: string;
  /** Another fetch (a proxy, a test double, @x402/fetch's wrapped fetch, …). */
  fetch?: (input: Request) => Promise<Response>;
  headers?: Record<string, string>;
}

export function createPmxClient(options: PmxClientOptions): PmxClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  if (options.adminToken) headers.authorization = `Bearer ${options.adminToken}`;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
