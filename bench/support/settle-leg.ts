/**
 * One leg of the settlement bench (bench/clob-settlement.bench.ts): a daemon of its own on one
 * database, its raw-SPL baseline measured on the same ledger before and after, a backlog of
 * `fills` settled at once (fills/s, the ledger's share, this process's CPU a fill, `/health`
 * during the drain) and, when `latency` is asked, the match → settled delay of fills matched
 * while the keeper runs.
 */
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, TransactionInstruction, TransactionMessage, VersionedTransaction, PublicKey } from '@solana/web3.js';
import { startLatencyProbe } from './start-latency-probe.js';
import { loadConfig } from '../../config/config.js';
import { startDaemon } from '../../src/daemon.js';
import { clobWrite, createClobMarket, depositedTrader, place, USDC, waitFor } from '../../test/family-c/family-c.harness.js';
import { tempDir } from '../../test/helpers/databases.js';
import { TEST_ADMIN_TOKEN } from '../../test/helpers/app.js';
import { formatMs, percentile } from '../stats.js';
import { countingLogger } from './counting-logger.js';
import { waitSettled } from './wait-settled.js';
import { recordGcs, recordLoopStalls } from './loop-stalls.js';
import { startAllocationProfile } from './allocation-profile.js';
import { describeLedgerShare, measureLedgerShare } from './ledger-share.js';

const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

export interface LegResult {
  fillsPerSec: number;
  /** The higher of the two raw-transfer runs of this leg (the stricter baseline). */
  transfersPerSec: number;
  /** This process's CPU (user + system) in the drain over the fills, µs. */
  cpuUsPerFill: number;
  /** The same, less what the idle daemon spent per second (the probe's requests, timers, polls) over the drain's length. */
  netCpuUsPerFill: number;
  healthP99Ms: number;
  deadlockLines: number;
}

export async function settleLeg(
  databaseEnv: Record<string, string>,
  { fills, latency }: { fills: number; latency: boolean },
): Promise<LegResult> {
  const logger = countingLogger();
  const daemon = await startDaemon(
    loadConfig({
      DATA_DIR: tempDir('pmx-bench-settle-'),
      PORT: '0',
      LEDGER_RPC_PORT: '0',
      LOG_LEVEL: process.env.BENCH_LOG ?? 'warn',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      RATE_LIMIT_READ_PER_MIN: '1000000',
      RATE_LIMIT_WRITE_PER_MIN: '1000000',
      CLOB_SETTLE_SWEEP_INTERVAL_MS: '500',
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, QUEUE_PREFIX: `bench-settle-${process.pid}-${Date.now()}` } : {}),
      ...databaseEnv,
    }),
    logger.log,
  );
  let measured: Omit<LegResult, 'deadlockLines'>;
  const h = {
    daemon,
    app: daemon.app!,
    ledger: daemon.chain.ledger!,
    usdcMint: daemon.chain.usdcMint,
    prefix: '',
    close: () => daemon.stop(),
  };
  try {
    // Raw SPL transfers, signed and sent one after another, each landed before the next.
    const payer = Keypair.generate();
    await h.ledger.airdrop(payer.publicKey, 10_000_000_000n);
    await h.ledger.mintUsdc(payer.publicKey, 1_000_000n * USDC);
    const to = Keypair.generate().publicKey;
    await h.ledger.mintUsdc(to, 1n);
    const [from, dest] = [payer.publicKey, to].map((o) => getAssociatedTokenAddressSync(h.usdcMint, o));
    let sent = 0;
    const rawTransfersPerSec = async (transfers = 600): Promise<number> => {
      const t0 = performance.now();
      for (let i = 0; i < transfers; i++) {
        const { blockhash } = await daemon.chain.client.getLatestBlockhash();
        const message = new TransactionMessage({
          payerKey: payer.publicKey,
          recentBlockhash: blockhash,
          instructions: [
            createTransferInstruction(from!, dest!, payer.publicKey, 1n),
            new TransactionInstruction({ programId: MEMO, keys: [], data: Buffer.from(`t${sent++}`) }),
          ],
        }).compileToV0Message();
        const tx = new VersionedTransaction(message);
        tx.sign([payer]);
        await daemon.chain.client.sendRawTransaction(tx.serialize());
      }
      return transfers / ((performance.now() - t0) / 1000);
    };
    const transfersBefore = await rawTransfersPerSec();

    // Fills: makers rest asks, one taker sweeps them with IOC buys.
    const market = await createClobMarket(h as never, { minOrderSize: '100000' }); // 0.1-0.2 token orders: many fills per round
    const makers: Keypair[] = [];
    // Each maker sells 0.2 tokens a fill in both measures (2 × fills over 8 makers), with room to spare.
    const split = BigInt(Math.max(60, Math.ceil((fills * 2 * 0.2) / 8) + 10)) * USDC;
    for (let i = 0; i < 8; i++) {
      const m = await depositedTrader(h as never, split + 40n * USDC);
      await clobWrite(
        h as never,
        '/v2/clob/account/split',
        { pubkey: m.publicKey.toBase58(), marketId: market.id, amount: split.toString() },
        m,
      );
      makers.push(m);
    }
    const taker = await depositedTrader(h as never, 5_000n * USDC);
    await waitFor(
      'splits indexed',
      async () => {
        const rows = await daemon.db.db.selectFrom('token_accounts').select('amount').where('mint', '=', market.yesMint).execute();
        return rows.filter((r) => BigInt(r.amount) === split).length === makers.length ? true : undefined;
      },
      30_000,
    );
    const perRound = makers.length * 3;
    // Makers rest asks, one taker sweeps them with IOC buys; returns each fill's match time.
    const matchFills = async (): Promise<Map<string, number>> => {
      const matched = new Map<string, number>();
      for (let made = 0; made < fills; made += perRound) {
        for (const [i, m] of makers.entries()) {
          for (let j = 0; j < 3; j++)
            await place(h as never, m, {
              market: market.marketPubkey,
              side: 'sell',
              outcome: 'yes',
              priceBps: 5000 + i * 10 + j,
              quantity: 200_000n,
            });
        }
        const r = await place(h as never, taker, {
          market: market.marketPubkey,
          side: 'buy',
          outcome: 'yes',
          priceBps: 9000,
          quantity: BigInt(perRound) * 200_000n,
          timeInForce: 'ioc',
        });
        for (const f of r.fills as Array<{ id: string }>) matched.set(f.id, Date.now());
      }
      return matched;
    };
    const settledTimes = (ids: string[]) => waitSettled(daemon.db.db, market.id, ids);
    const settleTransactions = async () =>
      Number(
        (
          await daemon.db.db
            .selectFrom('clob_settlement_batches')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('market_id', '=', market.id)
            .executeTakeFirstOrThrow()
        ).n,
      );

    // Warm-up: one settled fill per maker, so the market's lookup table holds every trader's
    // accounts before the measure (created once per trader and market, it waits a slot), as it
    // does for traders who traded before. Each order of the measure is still new on chain.
    const warm: string[] = [];
    for (const [i, m] of makers.entries())
      await place(h as never, m, { market: market.marketPubkey, side: 'sell', outcome: 'yes', priceBps: 4000 + i, quantity: 100_000n });
    const sweep = await place(h as never, taker, {
      market: market.marketPubkey,
      side: 'buy',
      outcome: 'yes',
      priceBps: 9000,
      quantity: BigInt(makers.length) * 100_000n,
      timeInForce: 'ioc',
    });
    for (const f of sweep.fills as Array<{ id: string }>) warm.push(f.id);
    await settledTimes(warm);

    // Throughput: the keeper's queue is paused while the fills are matched (placing 250 orders
    // through HTTP takes seconds of its own), then resumed with every fill waiting.
    const txsBefore = await settleTransactions();
    const platform = daemon.queues.get('platform');
    await platform.pause();
    const queued = await matchFills();
    // /health of this very process (the default single process) probed from another, idle and
    // during the drain (issue 31: p99 ≤ 50 ms while the backlog settles).
    const health = `${daemon.url}/health`;
    const idleProbe = await startLatencyProbe(health);
    // The idle daemon's own CPU per second, probe included: paid per second of a drain, not per
    // fill, it made a longer (slower) drain read more CPU a fill (docs/performance.md, twelfth pass).
    const idleCpuBefore = process.cpuUsage();
    const idleFrom = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idleCpu = process.cpuUsage(idleCpuBefore);
    const idleCpuUsPerMs = (idleCpu.user + idleCpu.system) / (performance.now() - idleFrom);
    const idle = await idleProbe.stop();
    const drainProbe = await startLatencyProbe(health);
    const profiling = process.env.BENCH_SETTLE_WINDOW === '1' || process.execArgv.some((a) => a.startsWith('--cpu-prof'));
    const stalls = profiling ? recordLoopStalls() : undefined;
    const gcs = profiling ? recordGcs() : undefined;
    const allocations = process.env.BENCH_SETTLE_ALLOCATIONS === '1' ? await startAllocationProfile() : undefined;
    const ledgerShare = measureLedgerShare(h.ledger);
    const resumed = Date.now();
    const cpuBefore = process.cpuUsage();
    const drainFromUs = process.hrtime.bigint() / 1000n;
    await platform.resume();
    const throughputDone = Math.max(...(await settledTimes([...queued.keys()])).values());
    const share = ledgerShare.stop();
    const cpu = process.cpuUsage(cpuBefore);
    // Under --cpu-prof (or BENCH_SETTLE_WINDOW=1), the drain's window for profile-summary.ts
    // (CLOCK_MONOTONIC µs, as the profile's and process.hrtime's).
    if (allocations) {
      const { totalBytes, top } = await allocations.stop();
      console.log(
        `    allocated in the drain: ${(totalBytes / 2 ** 20).toFixed(0)} MiB (${(totalBytes / queued.size / 1024).toFixed(0)} KiB a fill), by site:`,
      );
      for (const line of top) console.log(`      ${line}`);
    }
    if (profiling) {
      console.log(`    drain window (µs): ${drainFromUs} ${process.hrtime.bigint() / 1000n}`);
      console.log(`    in the drain: ${gcs!.stop()}`);
      for (const { fromUs, toUs } of stalls!.stop())
        console.log(`    loop held (µs): ${fromUs} ${toUs} (${((toUs - fromUs) / 1000).toFixed(1)} ms)`);
    }
    const drain = await drainProbe.stop();
    const fillsPerSec = queued.size / ((throughputDone - resumed) / 1000);
    const throughputTxs = (await settleTransactions()) - txsBefore;

    // Latency (when asked): fills matched while the keeper runs, from each match to `settled`.
    const live = latency ? await matchFills() : new Map<string, number>();
    const settledAt = live.size > 0 ? await settledTimes([...live.keys()]) : new Map<string, number>(); // `in ()` is no SQL on PostgreSQL
    const delays = [...live].map(([id, at]) => settledAt.get(id)! - at);
    // The baseline again, on the ledger as the keeper left it; the ratio takes the faster of the
    // two (this machine's speed drifts by ±20 % within a minute: the higher baseline is the stricter).
    const transfersAfter = await rawTransfersPerSec();
    const transfersPerSec = Math.max(transfersBefore, transfersAfter);
    const cpuUsPerFill = (cpu.user + cpu.system) / queued.size;
    const netCpuUsPerFill = (cpu.user + cpu.system - idleCpuUsPerMs * (throughputDone - resumed)) / queued.size;
    console.log(
      `    raw SPL transfers (send + land, one at a time): ${transfersBefore.toFixed(0)} /s before, ${transfersAfter.toFixed(0)} /s after the keeper's runs`,
    );
    console.log(
      `    fills settled by the keeper: ${queued.size} fills waiting at once, in ${throughputTxs} transactions (registrations included), ${fillsPerSec.toFixed(0)} fills/s`,
    );
    console.log(`    ratio ${(fillsPerSec / transfersPerSec).toFixed(2)}× (goal ≥ 0.5×, issue 31)`);
    console.log(`    ${describeLedgerShare(share, throughputDone - resumed, queued.size)}`);
    // The process's CPU in the drain moves less with the machine's load than the wall time does.
    console.log(
      `    this process's CPU in the drain: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms (${cpuUsPerFill.toFixed(0)} µs a fill; ledger sends ${share.summedMs.toFixed(0)} ms of it at most); ` +
        `${netCpuUsPerFill.toFixed(0)} µs a fill less the idle daemon's ${(idleCpuUsPerMs / 10).toFixed(1)} % of a core over the drain`,
    );
    console.log(
      `    /health during the drain: p50 ${formatMs(drain.p50)}, p99 ${formatMs(drain.p99)}, max ${formatMs(drain.max)} (goal p99 ≤ 50 ms); ` +
        `idle p50 ${formatMs(idle.p50)}, p99 ${formatMs(idle.p99)}${drain.errors + idle.errors > 0 ? `; ${drain.errors + idle.errors} probes failed` : ''}`,
    );
    if (live.size > 0)
      console.log(
        `    ${live.size} fills matched while the keeper runs: match → settled p50 ${formatMs(percentile(delays, 50))}, p99 ${formatMs(percentile(delays, 99))}`,
      );
    measured = { fillsPerSec, transfersPerSec, cpuUsPerFill, netCpuUsPerFill, healthP99Ms: drain.p99 };
  } finally {
    await daemon.stop();
  }
  return { ...measured, deadlockLines: logger.deadlockLines() };
}
