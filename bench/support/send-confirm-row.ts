/**
 * The send + confirm row of bench/http-table: the daemon's JSON-RPC `sendTransaction` then
 * `getSignatureStatuses` (10 connections) against LiteSVM called directly in this process, with
 * two references measured in the same rounds:
 * - the ceiling: a bare node:http server answering the two calls with the daemon's sizes, then
 *   LiteSVM, one after the other on one core: 1 / (1/bare + 1/direct). It keeps nothing.
 * - the durable floor (send-confirm-floor.ts, its own process): HTTP, LiteSVM and one SQLite
 *   commit per turn's group before the answers, with the ledger's durability: the least any
 *   ledger keeping its guarantees can do. floor/direct is what the row can reach at best;
 *   ours/floor is what is left to cut.
 * Each round runs the four sides one after another (the order rotates); each ratio printed is
 * the median of the rounds' ratios.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import type { BareReply } from './bare-server.js';
import { median } from './cannon.js';
import { call, type Fixture } from './daemon-fixture.js';
import { liteSvmDirect, sendAndConfirmOverRpc, signedTransfers } from './send-confirm.js';

/** The bare server's answers to the two calls (the baselines' process serves them at `path`). */
export const SEND_CONFIRM_BARE: BareReply = {
  path: '/send-confirm',
  method: 'POST',
  status: 200,
  contentType: 'application/json',
  body: '',
  byMethod: {
    sendTransaction: JSON.stringify({ jsonrpc: '2.0', result: '5'.repeat(88), id: 1 }),
    getSignatureStatuses: JSON.stringify({
      jsonrpc: '2.0',
      result: {
        context: { slot: 123_456, apiVersion: '2.2.0' },
        value: [{ slot: 123_456, confirmations: null, err: null, confirmationStatus: 'finalized', status: { Ok: null } }],
      },
      id: 2,
    }),
  },
};

interface FloorProcess {
  url: string;
  blockhash: string;
  mint: PublicKey;
  payer: Keypair;
  to: PublicKey;
  close(): void;
}

async function startFloor(): Promise<FloorProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=pmx-source', '--import', 'tsx', path.join(import.meta.dirname, 'send-confirm-floor.ts')],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`send + confirm floor exited with ${code}`)));
  });
  const info = JSON.parse(line) as { url: string; blockhash: string; mint: string; payer: number[]; to: string };
  return {
    url: info.url,
    blockhash: info.blockhash,
    mint: new PublicKey(info.mint),
    payer: Keypair.fromSecretKey(Uint8Array.from(info.payer)),
    to: new PublicKey(info.to),
    close: () => child.stdin!.end(),
  };
}

export interface SendConfirmResult {
  ours: number;
  direct: number;
  bare: number;
  floor: number;
  /** Medians of the rounds' ratios. */
  oursOverDirect: number;
  floorOverDirect: number;
  oursOverFloor: number;
  ceilingOverDirect: number;
}

export async function sendConfirmRow(
  daemonUrl: string,
  f: Fixture,
  bareUrl: string,
  opts: { reps: number; n: number; connections: number },
): Promise<SendConfirmResult> {
  const payer = Keypair.generate();
  const to = Keypair.generate().publicKey;
  await call(daemonUrl, 'POST', '/v2/dev/faucet', { wallet: payer.publicKey.toBase58(), usdc: '1000000000000', sol: '100000000000' });
  await call(daemonUrl, 'POST', '/v2/dev/faucet', { wallet: to.toBase58(), usdc: '1' });
  const conn = new Connection(f.rpcUrl, 'confirmed');
  const floor = await startFloor();
  let amount = 1; // distinct amounts: every round's transactions are new signatures
  const fresh = () => ((amount += opts.n), amount - opts.n);
  const over = async (url: string, txs: Uint8Array[]) => {
    const r = await sendAndConfirmOverRpc(url, txs, opts.connections);
    if (r.failures > 0) throw new Error(`send+confirm ${url}: ${r.failures} failures`);
    return r.tps;
  };
  const sides = {
    ours: async () => over(f.rpcUrl, signedTransfers((await conn.getLatestBlockhash()).blockhash, f.usdcMint, payer, to, opts.n, fresh())),
    direct: async () => liteSvmDirect(opts.n),
    // The bare server answers without looking: the same bytes every round are fine.
    bare: async () => over(bareUrl, signedTransfers((await conn.getLatestBlockhash()).blockhash, f.usdcMint, payer, to, opts.n, 1)),
    floor: async () => over(floor.url, signedTransfers(floor.blockhash, floor.mint, floor.payer, floor.to, opts.n, fresh())),
  };
  try {
    await sides.ours(); // warm-up: JIT, connections, caches
    await sides.floor();
    const order = ['ours', 'direct', 'floor', 'bare'] as const;
    const rounds: Array<Record<(typeof order)[number], number>> = [];
    for (let round = 0; round < opts.reps; round++) {
      const got: Partial<Record<(typeof order)[number], number>> = {};
      for (let i = 0; i < order.length; i++) {
        const side = order[(i + round) % order.length]!;
        got[side] = await sides[side]();
      }
      rounds.push(got as Record<(typeof order)[number], number>);
      const r = rounds.at(-1)!;
      console.log(`    send + confirm round ${round + 1}: ${order.map((side) => `${side} ${Math.round(r[side])}`).join(', ')} tx/s`);
    }
    const of = (pick: (r: (typeof rounds)[number]) => number) => median(rounds.map(pick));
    return {
      ours: of((r) => r.ours),
      direct: of((r) => r.direct),
      bare: of((r) => r.bare),
      floor: of((r) => r.floor),
      oursOverDirect: of((r) => r.ours / r.direct),
      floorOverDirect: of((r) => r.floor / r.direct),
      oursOverFloor: of((r) => r.ours / r.floor),
      ceilingOverDirect: of((r) => 1 / (1 / r.bare + 1 / r.direct) / r.direct),
    };
  } finally {
    floor.close();
  }
}
