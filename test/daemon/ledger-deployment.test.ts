/**
 * How processes find and expose the embedded ledger (docs/operations.md, "Several machines"):
 * a ledger bound beyond loopback keeps its faucet and requestAirdrop off unless LEDGER_FAUCET is
 * set; a taken port names LEDGER_RPC_PORT; a process without the ledger role refuses a ledger
 * that is not the one its keys belong to, instead of talking to whatever answers.
 */
import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { openChainRuntime } from '../../src/features/open-chain-runtime.js';
import { findFreePort } from '../../src/infra/free-port.js';
import { tempDir } from '../helpers/databases.js';

const log = pino({ level: 'silent' });
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function ledger(env: Record<string, string>) {
  const dataDir = tempDir('pmx-ledger-deploy-');
  const opened = await openChainRuntime(loadConfig({ DATA_DIR: dataDir, LEDGER_RPC_PORT: '0', ...env }), log);
  closers.push(opened.close);
  return { dataDir, runtime: opened.runtime, port: Number(new URL(opened.runtime.rpcUrl).port) };
}

async function airdrop(port: number): Promise<{ result?: string; error?: { code: number; message: string } }> {
  const res = await fetch(`http://127.0.0.1:${port}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: ['11111111111111111111111111111112', 1_000_000] }),
  });
  return (await res.json()) as { result?: string; error?: { code: number; message: string } };
}

async function listen(port: number): Promise<net.Server | undefined> {
  const server = net.createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true));
  });
  return bound ? server : undefined;
}

async function occupy(port: number): Promise<boolean> {
  const server = await listen(port);
  if (server) closers.push(() => new Promise((resolve) => server.close(resolve)));
  return server !== undefined;
}

/** A free port whose next port this test holds: other test files bind ports concurrently, so
 * neither may be assumed free without binding it. */
async function portBelowOneHeld(): Promise<number> {
  for (;;) {
    const held = await findFreePort();
    if (held < 2 || !(await occupy(held))) continue;
    const below = await listen(held - 1);
    if (!below) continue;
    await new Promise((resolve) => below.close(resolve));
    return held - 1;
  }
}

describe('the embedded ledger across processes', () => {
  it('binds a non-loopback address with requestAirdrop and the dev faucet off, unless LEDGER_FAUCET is set', async () => {
    const open = await ledger({ LEDGER_HOST: '0.0.0.0' });
    expect(open.runtime.devFaucet).toBeUndefined();
    expect((await airdrop(open.port)).error?.message).toMatch(/requestAirdrop is disabled on this cluster/);

    const enabled = await ledger({ LEDGER_HOST: '0.0.0.0', LEDGER_FAUCET: 'true' });
    expect(enabled.runtime.devFaucet).toBeDefined();
    expect((await airdrop(enabled.port)).result).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);

    const loopback = await ledger({});
    expect(loopback.runtime.devFaucet).toBeDefined();
    // Bound to every interface, the ledger process tells clients the address set in RPC_URL.
    const told = await ledger({ LEDGER_HOST: '0.0.0.0', RPC_URL: 'http://10.0.0.5:8899' });
    expect(told.runtime.rpcUrl).toBe('http://10.0.0.5:8899');
  });

  it('names LEDGER_RPC_PORT when its port, or the PubSub port after it, is taken', async () => {
    let taken = await findFreePort();
    while (!(await occupy(taken))) taken = await findFreePort();
    const dataDir = tempDir('pmx-ledger-port-');
    await expect(openChainRuntime(loadConfig({ DATA_DIR: dataDir, LEDGER_RPC_PORT: String(taken) }), log)).rejects.toThrow(
      `LEDGER_RPC_PORT=${taken} is in use (EADDRINUSE); set LEDGER_RPC_PORT to a free port, or stop what holds it`,
    );
    const below = await portBelowOneHeld();
    await expect(openChainRuntime(loadConfig({ DATA_DIR: dataDir, LEDGER_RPC_PORT: String(below) }), log)).rejects.toThrow(
      `LEDGER_RPC_PORT=${below} is in use (EADDRINUSE: PubSub needs ${below + 1}, LEDGER_RPC_PORT + 1)`,
    );
  });

  it('reaches the ledger at RPC_URL with keys from KEYS_DIR, and refuses a ledger the keys do not belong to', async () => {
    const one = await ledger({});
    const other = await ledger({});
    const reach = (keysDir: string, port: number) =>
      openChainRuntime(
        loadConfig({ DATA_DIR: tempDir('pmx-api-'), ROLES: 'api', KEYS_DIR: keysDir, RPC_URL: `http://127.0.0.1:${port}` }),
        log,
      );
    const good = await reach(path.join(one.dataDir, 'keys'), one.port);
    closers.push(good.close);
    expect(good.runtime.usdcMint.equals(one.runtime.usdcMint)).toBe(true);
    expect(good.runtime.wallets.treasury.publicKey.equals(one.runtime.wallets.treasury.publicKey)).toBe(true);
    expect(good.runtime.devFaucet).toBeUndefined();

    await expect(reach(path.join(one.dataDir, 'keys'), other.port)).rejects.toThrow(
      new RegExp(
        `RPC_URL=http://127.0.0.1:${other.port}/? is not the ledger whose keys are in .*: its USDC mint \\w+ does not exist there`,
      ),
    );
    await expect(reach(tempDir('pmx-no-keys-'), one.port)).rejects.toThrow(/without the ledger role: no embedded cluster keys in/);
    const nobody = await findFreePort();
    await expect(reach(path.join(one.dataDir, 'keys'), nobody)).rejects.toThrow(
      new RegExp(`^RPC_URL=http://127.0.0.1:${nobody}/? does not answer \\(.*\\): start the ledger process first$`),
    );
  });
});
