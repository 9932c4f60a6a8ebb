/**
 * `local-cluster` on its own, as a user runs it: a plain web3.js client airdrops, transfers and
 * confirms against its JSON-RPC and PubSub; Ctrl-C (SIGINT) stops it with exit code 0; bad
 * arguments exit 2 with the usage.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction, sendAndConfirmTransaction } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

function startCli(args: string[]): ChildProcess {
  const script = `import { runCli } from ${JSON.stringify(CLI)}; await runCli(${JSON.stringify(args)});`;
  return spawn(process.execPath, ['--conditions=pmx-source', '--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with the first log line that has `msg`, parsed. */
function logLine(child: ChildProcess, msg: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split('\n').slice(0, -1)) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.msg === msg) resolve(entry);
      }
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => reject(new Error(`local-cluster exited (${code}) before logging "${msg}"`)));
  });
}

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

describe('local-cluster CLI', () => {
  it('serves a plain web3.js client (airdrop, transfer, confirm) and stops on SIGINT with exit 0', async () => {
    child = startCli(['--rpc-port', '0', '--slot-ms', '100']);
    const ready = await logLine(child, 'local cluster ready');
    const connection = new Connection(String(ready.rpcUrl), { commitment: 'confirmed', wsEndpoint: String(ready.wsUrl) });
    const payer = Keypair.generate();
    const payee = Keypair.generate();
    const airdrop = await connection.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
    const transfer = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payee.publicKey, lamports: 10_000_000 }),
    );
    await sendAndConfirmTransaction(connection, transfer, [payer]);
    expect(await connection.getBalance(payee.publicKey)).toBe(10_000_000);
    expect(await connection.getBalance(payer.publicKey)).toBe(2 * LAMPORTS_PER_SOL - 10_000_000 - 5000); // one signature's fee

    const exited = once(child, 'exit');
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(0);
  });

  it('refuses a bad port with the usage and exit code 2', async () => {
    child = startCli(['--rpc-port', '70000']);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('--rpc-port must be 0–65534');
    expect(stderr).toContain('usage: local-cluster');
  });
});
