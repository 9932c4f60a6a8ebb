/**
 * The http-table send + confirm row's server side, whole daemon (issue 31, fourteenth pass): the
 * daemon as the row runs it (bench/support/daemon-fixture.ts), a funded payer's signed USDC
 * transfers sent and confirmed over its JSON-RPC endpoint (10 connections), and the daemon
 * process's CPU per transaction from /proc (all its threads; signing and the client excluded).
 * Also prints the daemon's CPU while idle over the same length of time (its timers and job
 * loops), so what the sends cost is the difference. `rounds` sends of `n` each, one daemon.
 *
 *   npx tsx bench/support/send-confirm-daemon-cpu.ts [n=3000] [rounds=3]
 *   (BENCH_DAEMON=tsx runs the sources; by default the compiled dist/, as the row;
 *   DAEMON_MAIN=/other/tree/dist/src/main.js runs another tree's build, for A/B)
 */
import { readFileSync } from 'node:fs';
import { Connection, Keypair } from '@solana/web3.js';
import { spawnDaemon, waitForStatus } from '../../test/daemon/daemon-process.js';
import { tempDir } from '../../test/helpers/databases.js';
import { call, daemonEntry, setUp } from './daemon-fixture.js';
import { sendAndConfirmOverRpc, signedTransfers } from './send-confirm.js';

/** User + system CPU of process `pid`, in µs (/proc/<pid>/stat, clock ticks of 10 ms). */
function procCpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const n = Number(process.argv[2] ?? 3000);
const rounds = Number(process.argv[3] ?? 3);
const daemon = await spawnDaemon(
  tempDir('pmx-bench-send-cpu-'),
  { RATE_LIMIT_READ_PER_MIN: '1000000', RATE_LIMIT_WRITE_PER_MIN: '1000000', LOG_LEVEL: 'warn', HTTP_MAX_CONNECTIONS_PER_CLIENT: '0' },
  [],
  process.env.DAEMON_MAIN ? [process.env.DAEMON_MAIN] : daemonEntry(),
);
try {
  await waitForStatus(daemon, '/health', 200, 60_000);
  const f = await setUp(daemon);
  const pid = daemon.child.pid!;
  for (let round = 0; round < rounds; round++) {
    const payer = Keypair.generate();
    const to = Keypair.generate().publicKey;
    await call(daemon.url, 'POST', '/v2/dev/faucet', { wallet: payer.publicKey.toBase58(), usdc: '1000000000000', sol: '100000000000' });
    await call(daemon.url, 'POST', '/v2/dev/faucet', { wallet: to.toBase58(), usdc: '1' });
    const { blockhash } = await new Connection(f.rpcUrl, 'confirmed').getLatestBlockhash();
    const txs = signedTransfers(blockhash, f.usdcMint, payer, to, n);
    await new Promise((r) => setTimeout(r, 500)); // the faucet's own reactions settle first
    const cpu0 = procCpuUs(pid);
    const t0 = performance.now();
    const r = await sendAndConfirmOverRpc(f.rpcUrl, txs, 10);
    const ms = performance.now() - t0;
    const cpu = procCpuUs(pid) - cpu0;
    const idle0 = procCpuUs(pid);
    await new Promise((res) => setTimeout(res, ms));
    const idle = procCpuUs(pid) - idle0;
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(
      JSON.stringify({
        round,
        n,
        tps: Math.round(r.tps),
        failures: r.failures,
        cpuUsPerTx: +(cpu / n).toFixed(1),
        idleUsPerTxSpan: +(idle / n).toFixed(1),
        load,
      }),
    );
  }
} finally {
  daemon.child.kill('SIGINT');
  await daemon.exited;
}
