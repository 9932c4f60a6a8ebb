/**
 * Where the daemon's CPU goes under one kind of load: runs the daemon with `node --cpu-prof`,
 * builds the bench fixture, drives the named load with autocannon (10 connections) and prints
 * the profile's top self-time entries. Not a bench (no ratio): the tool behind issue 15's notes.
 *
 *   npx tsx bench/profile.ts reads|buy|health|list|positions|rpc|account|send [seconds=10] [top=30]
 *
 * `send`: signed SPL transfers sent and confirmed over the JSON-RPC endpoint (the http-table row),
 * about `seconds` worth of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Connection, Keypair } from '@solana/web3.js';
import type autocannon from 'autocannon';
import { spawnDaemon, waitForStatus } from '../test/daemon/daemon-process.js';
import { tempDir } from '../test/helpers/databases.js';
import { cannon, rateOf } from './support/cannon.js';
import { call, daemonEntry, setUp } from './support/daemon-fixture.js';
import { sendAndConfirmOverRpc, signedTransfers } from './support/send-confirm.js';
import { topSelfTime } from './support/profile-summary.js';

const [kind = 'reads', seconds = '10', top = '30'] = process.argv.slice(2);
const profDir = tempDir('pmx-cpuprof-');
const window = { fromUs: 0, toUs: 0 };
const daemon = await spawnDaemon(
  tempDir('pmx-bench-profile-'),
  {
    RATE_LIMIT_READ_PER_MIN: '1000000',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    LOG_LEVEL: 'warn',
    HTTP_MAX_CONNECTIONS_PER_CLIENT: '0',
  },
  ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
  daemonEntry(),
);
try {
  await waitForStatus(daemon, '/health', 200, 60_000);
  const f = await setUp(daemon);
  const wallet = f.trader.publicKey.toBase58();
  const json = { 'content-type': 'application/json' };
  const ata = getAssociatedTokenAddressSync(f.usdcMint, f.trader.publicKey).toBase58();
  const loads: Record<string, autocannon.Request[]> = {
    reads: [
      `/v2/config`,
      `/v2/markets/${f.marketId}`,
      `/v2/markets/${f.slug}`,
      `/v2/markets/${f.marketId}/quote?side=UP&amount=1000000`,
    ].map((p) => ({ method: 'GET', path: p })),
    health: [{ method: 'GET', path: '/health' }],
    list: [{ method: 'GET', path: '/v2/markets?limit=20' }],
    positions: [{ method: 'GET', path: `/v2/positions/${wallet}` }],
    buy: [
      {
        method: 'POST',
        path: `/v2/markets/${f.marketId}/buy`,
        headers: json,
        body: JSON.stringify({ wallet, side: 'UP', amount: 1_000_000 }),
      },
    ],
    rpc: [
      { method: 'POST', headers: json, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountBalance', params: [ata] }) },
    ],
    account: [
      {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [ata, { encoding: 'base64' }] }),
      },
    ],
  };
  if (kind === 'send') {
    await profileSends(f, Number(seconds));
  }
  const requests = kind === 'send' ? [] : loads[kind];
  if (!requests) throw new Error(`unknown load ${kind}; one of ${Object.keys(loads).join(', ')}, send`);
  const url = kind === 'rpc' || kind === 'account' ? f.rpcUrl : daemon.url;
  if (kind !== 'send') window.fromUs = Number(process.hrtime.bigint() / 1000n);
  if (kind !== 'send') {
    const r = rateOf(await cannon({ url, connections: 10, duration: Number(seconds), requests }));
    window.toUs = Number(process.hrtime.bigint() / 1000n);
    console.log(`${kind}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, failures ${r.failures}`);
  }
} finally {
  daemon.child.kill('SIGINT');
  await daemon.exited;
}
const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written in ${profDir}`);
console.log(`profile: ${path.join(profDir, file)}`);
console.log(topSelfTime(path.join(profDir, file), Number(top), window).join('\n'));

/** ~300 transfers per second asked for: a funded payer's transfers, sent and confirmed over JSON-RPC. */
async function profileSends(f: Awaited<ReturnType<typeof setUp>>, secs: number): Promise<void> {
  const payer = Keypair.generate();
  const to = Keypair.generate().publicKey;
  await call(daemon.url, 'POST', '/v2/dev/faucet', { wallet: payer.publicKey.toBase58(), usdc: '1000000000000', sol: '100000000000' });
  await call(daemon.url, 'POST', '/v2/dev/faucet', { wallet: to.toBase58(), usdc: '1' });
  const { blockhash } = await new Connection(f.rpcUrl, 'confirmed').getLatestBlockhash();
  const txs = signedTransfers(blockhash, f.usdcMint, payer, to, Math.round(secs * 300));
  window.fromUs = Number(process.hrtime.bigint() / 1000n);
  const r = await sendAndConfirmOverRpc(f.rpcUrl, txs, 10);
  window.toUs = Number(process.hrtime.bigint() / 1000n);
  console.log(`send: ${Math.round(r.tps)} tx/s sent and confirmed, failures ${r.failures}`);
}
