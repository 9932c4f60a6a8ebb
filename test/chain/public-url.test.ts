/**
 * GET /v2/config shows the cluster's URL: an operator's RPC API key (userinfo or query string)
 * must never reach clients or logs.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { RpcChainClient } from '../../src/chain/adapters/rpc.adapter.js';
import { publicUrl } from '../../src/chain/public-url.js';

describe('publicUrl', () => {
  it('drops credentials, query strings and fragments, keeps scheme, host, port and path', () => {
    expect(publicUrl('https://user:s3cret@rpc.example.com:8443/v1/?api-key=abc123&x=1#frag')).toBe('https://rpc.example.com:8443/v1/');
    expect(publicUrl('http://127.0.0.1:8899')).toBe('http://127.0.0.1:8899');
    expect(publicUrl('https://rpc.example.com?api-key=k')).toBe('https://rpc.example.com');
    expect(publicUrl('not a url')).toBe('(invalid url)');
  });

  it('is what an rpc chain client reports as its cluster', async () => {
    const client = new RpcChainClient({
      rpcUrl: 'https://rpc.example.com/?api-key=SECRET',
      commitment: 'confirmed',
      logger: pino({ level: 'silent' }),
    });
    try {
      expect(client.cluster).toBe('https://rpc.example.com/');
      expect(client.cluster).not.toContain('SECRET');
    } finally {
      await client.close();
    }
  });
});
