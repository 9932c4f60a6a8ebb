/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test, read loosely */
// Family A end to end: the real daemon (`tsx src/main.ts`) in one process, an agent with
// web3.js in another, and the operator (this test) on the admin API. Then a kill -9 between a
// verified payment and its delivery: after restart the delivery completes, exactly once.
import { execFile, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReadyDaemon } from '../daemon/daemon-process.js';
import { tempDir } from '../helpers/databases.js';
import { waitForQueuesDrained } from '../helpers/queues.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const agentScript = fileURLToPath(new URL('./fixtures/family-a-agent.ts', import.meta.url));
const ADMIN = 'family-a-e2e-admin-token-0123';

interface Daemon {
  proc: ChildProcess;
  api: string;
}
const dataDir = tempDir('pmx-family-a-e2e-');
const prefix = uniquePrefix('fae2e');

/** The daemon on fresh ports each start (the test reads the API and RPC URLs back each time). */
async function startDaemon(extra: Record<string, string> = {}): Promise<Daemon> {
  const env = {
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    ...extra,
  };
  const daemon = await startReadyDaemon(dataDir, env, '/health', 60_000);
  return { proc: daemon.child, api: daemon.url };
}

async function stop(d: Daemon, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (d.proc.exitCode !== null) return;
  const exited = new Promise((r) => d.proc.once('exit', r));
  d.proc.kill(signal);
  await exited;
}

function runAgent(env: Record<string, string>): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    execFile(tsx, [agentScript], { env: { ...process.env, ...env }, timeout: 60_000 }, (err, out, errOut) => {
      if (err) return reject(new Error(`${err.message}\n${errOut}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)!));
    });
  });
}

async function getJson(url: string): Promise<any> {
  return (await fetch(url)).json();
}

async function adminPost(api: string, path: string, body: unknown) {
  const res = await fetch(`${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

let daemon: Daemon;
beforeAll(async () => {
  daemon = await startDaemon();
}, 200_000);
afterAll(async () => {
  if (daemon) await stop(daemon);
  await deleteKeys(prefix);
});

describe('Family A end to end (daemon + agent processes)', () => {
  it('buys, sells part back, and after resolution claims once', async () => {
    const created = await adminPost(daemon.api, '/v2/admin/markets', {
      name: 'E2E: will the agent win?',
      description: 'end to end',
      endDate: '2031-01-01T00:00:00Z',
      slug: 'e2e-agent-market',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.status).toBe('live');
    // The platform's reserve for payouts above what buyers paid (nobody buys NO here).
    await fetch(`${daemon.api}/v2/dev/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        wallet: (await getJson(`${daemon.api}/v2/markets/e2e-agent-market/details`)).data.metadata.option_wallets.No,
        usdc: '100000000',
      }),
    });

    const trade = await runAgent({ API_URL: daemon.api, SLUG: 'e2e-agent-market', PHASE: 'trade' });
    expect(trade.quoteStatus).toBe(402);
    expect(trade.buy.status).toBe(200);
    expect(trade.buy.data).toMatchObject({ action: 'buy', side: 'YES', amount: 5, deliveryStatus: 'confirmed' });
    expect(trade.buy.yes).toBe('10000000000'); // 5 / 0.0005 = 10,000 tokens
    expect(trade.sell.data).toMatchObject({ action: 'sell', usdcPayout: 2, deliveryStatus: 'confirmed' });
    expect(trade.sell.yes).toBe('6000000000');
    expect(trade.sell.usdc).toBe(String(50_000_000 - 5_000_000 + 2_000_000));

    expect((await adminPost(daemon.api, '/v2/admin/markets/e2e-agent-market/resolve', { outcome: 'YES' })).status).toBe(200);
    const claim = await runAgent({
      API_URL: daemon.api,
      SLUG: 'e2e-agent-market',
      PHASE: 'claim',
      AGENT_SECRET: JSON.stringify(trade.secret),
    });
    expect(claim.claim.info).toMatchObject({ outcome: 'Yes', userTokenBalance: 6000, payoutUsdc: 6 });
    expect(claim.claim.confirm.status).toBe(200);
    expect(claim.claim.confirm.data).toMatchObject({ payoutUsdc: 6, tokenAmount: 6000, deliveryStatus: 'confirmed' });
    expect(claim.claim.usdcGain).toBe('6000000');
    expect(claim.claim.again.status).toBe(409);
    expect(claim.claim.again.body.error.code).toBe('ALREADY_CLAIMED');
    expect(claim.claim.again.body.claim.txHash).toBe(claim.claim.confirm.data.tokenTransferTxHash);
  }, 120_000);

  it('completes a delivery once after kill -9 between verification and delivery', async () => {
    const created = await adminPost(daemon.api, '/v2/admin/markets', {
      name: 'E2E crash market',
      description: 'kill -9',
      endDate: '2031-01-01T00:00:00Z',
      slug: 'e2e-crash-market',
    });
    expect(created.status).toBe(200);
    await stop(daemon);
    // Restart with a short delivery wait; hold the platform queue so the payment is recorded but
    // not delivered when the process dies.
    daemon = await startDaemon({ FAMILY_A_DELIVERY_WAIT_MS: '500' });
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const platform = new Queue('platform', { connection, prefix });
    await platform.pause();
    const result = await runAgent({ API_URL: daemon.api, SLUG: 'e2e-crash-market', PHASE: 'buy' });
    // Verified and recorded, answered 200 with the delivery still pending, tokens not yet sent.
    expect(result.buy.status).toBe(200);
    expect(result.buy.data.deliveryStatus).toBe('pending');
    expect(result.buy.yes).toBe('0');
    await stop(daemon, 'SIGKILL');
    await platform.resume();
    await platform.close();
    connection.disconnect();

    daemon = await startDaemon();
    const wallet = result.wallet as string;
    expect(wallet).toBeTruthy();
    const details = (await getJson(`${daemon.api}/v2/markets/e2e-crash-market/details`)).data;
    const rpcUrl = (await getJson(`${daemon.api}/v2/config`)).data.rpcUrl as string;
    let yes = '0';
    for (let i = 0; i < 100 && yes !== '10000000000'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'getTokenAccountsByOwner',
          params: [wallet, { mint: details.cas.Yes }, { encoding: 'jsonParsed' }],
        }),
      });
      const accounts = ((await res.json()) as any).result?.value ?? [];
      yes = String(accounts.reduce((s: bigint, a: any) => s + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n));
    }
    expect(yes).toBe('10000000000');
    // The duplicate jobs (original + startup resume scan) have all run before the balance is re-read.
    const drainConnection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const drainQueue = new Queue('platform', { connection: drainConnection, prefix });
    try {
      await waitForQueuesDrained([drainQueue], 30_000);
    } finally {
      await drainQueue.close();
      drainConnection.disconnect();
    }
    const again = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'getTokenAccountsByOwner',
        params: [wallet, { mint: details.cas.Yes }, { encoding: 'jsonParsed' }],
      }),
    });
    const accounts = ((await again.json()) as any).result.value;
    expect(accounts.reduce((s: bigint, a: any) => s + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n)).toBe(10_000_000_000n);
  }, 150_000);
});
