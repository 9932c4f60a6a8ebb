// Issue 8, "done when": a seeded random sequence of Family A quotes and payments (right, short,
// long, wrong wallet, wrong mint, two markets in one transaction, a payment presented with someone
// else's smaller quote, replays, concurrent presentations), sells, resolutions, claims (whole and
// partial) and creation fees, from several wallets, against the REAL daemon process, killed with
// SIGKILL twice (between a payment and its presentation, and while a presentation is in flight).
// At the end every raw unit any wallet sent to a platform wallet is accounted for — delivered,
// refunded, or credited — and every wallet's balances are exactly what the rules give: nobody
// received more (or less) than they paid for. FAMILY_A_PROPERTY_SEED replays another sequence.
import { Keypair } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/databases.js';
import { expectEveryUnitAccounted } from './fixtures/family-a-money-accounting.js';
import { moneyActions, sleep } from './fixtures/family-a-money-actions.js';
import { rng, World, type Market } from './fixtures/family-a-money-world.js';

const SEED = Number(process.env.FAMILY_A_PROPERTY_SEED ?? 8_2026);
/** Each kind of action at least once, then weighted random ones; one market resolves at RESOLVE_AT, claims follow. */
const STEPS = 40;
const RESOLVE_AT = 22;
const KILLS = new Set([9, 30]);
const USDC0 = 1_000_000_000n; // 1,000 USDC per wallet
const FAKE0 = 1_000_000_000n;

const world = new World(tempDir('pmx-famA-money-'), {
  LOG_LEVEL: 'warn',
  FAMILY_A_DELIVERY_WAIT_MS: '3000',
  OUTBOUND_RESUME_INTERVAL_MS: '1000',
  FAMILY_A_SWEEP_INTERVAL_MS: '1000',
  FAMILY_A_CREATION_FEE_USDC: '1',
  FAMILY_A_CREATION_FEE_SOL: '0.01',
  FAMILY_A_PRESENT_GRACE_SEC: '600',
});
afterAll(async () => {
  await world.stop();
});

describe('Family A money, property over random sequences with kill -9', () => {
  it(`accounts for every raw unit (seed ${SEED})`, async () => {
    const rand = rng(SEED);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;

    await world.start();
    const markets: Market[] = [];
    const live = new Map<string, boolean>();
    for (const name of ['alpha', 'beta']) {
      const created = await world.admin('/v2/admin/markets', {
        name: `Property ${name} ${SEED}`,
        description: 'money property',
        endDate: '2031-01-01T00:00:00Z',
        slug: `prop-${name}-${SEED}`,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const d = created.body.data;
      markets.push({
        slug: d.slug,
        yesMint: d.cas.Yes,
        noMint: d.cas.No,
        yesWallet: d.metadata.option_wallets.Yes,
        noWallet: d.metadata.option_wallets.No,
        priceRaw: BigInt(Math.round(d.metadata.target_price * 1e6)),
        limit: BigInt(d.metadata.market_limit),
      });
      live.set(d.slug, true);
    }
    const wallets = Array.from({ length: 4 }, () => Keypair.generate());
    for (const w of wallets) await world.faucet(w.publicKey.toBase58(), USDC0, 2_000_000_000n);
    const fake = await world.fakeMint(wallets[0]!, wallets, FAKE0);
    const creator = wallets[3]!;
    const creationBody = {
      name: `Property creation ${SEED}`,
      description: 'a creation paid in USDC only',
      end_date: '2031-01-01T00:00:00Z',
      creator_wallet: creator.publicKey.toBase58(),
    };
    const creation = (await world.post('/v2/markets', creationBody))!.body;
    const platform: string = creation.payment.payTo;
    await world.faucet(platform, 100_000_000_000n); // the payout reserve

    const { buy, actions } = moneyActions({ world, rand, markets, live, wallets, fake, creator, platform, creationBody, creation });

    const weights: Array<[string, number]> = [
      ['buy', 6],
      ['short', 2],
      ['long', 2],
      ['wrongWallet', 2],
      ['wrongMint', 1],
      ['hijack', 2],
      ['twoInOne', 2],
      ['replay', 2],
      ['concurrent', 2],
      ['sell', 4],
      ['creationUsdcOnly', 1],
    ];
    const total = weights.reduce((s, [, n]) => s + n, 0);
    const drawn = () => {
      let r = rand() * total;
      return weights.find(([, n]) => (r -= n) < 0)![0];
    };
    // Before the resolution: every trade action once, then random ones, in a seeded order.
    const before = [...weights.map(([n]) => n), ...Array.from({ length: RESOLVE_AT - weights.length - 1 }, drawn)].sort(() => rand() - 0.5);
    const after = Array.from({ length: STEPS - RESOLVE_AT - 1 }, (_, i) => (i % 3 === 0 ? 'claim' : drawn()));
    const plan = [...before, 'payThenResolve', ...after];
    const trace: string[] = [];
    for (let step = 0; step < plan.length; step++) {
      if (KILLS.has(step)) {
        const mode = rand() < 0.5 ? 'between' : 'during';
        trace.push(`kill-${mode}`);
        await buy(mode);
      }
      trace.push(plan[step]!);
      await actions[plan[step]!]!();
    }
    for (const m of markets.filter((x) => live.get(x.slug)))
      await world.admin(`/v2/admin/markets/${m.slug}/resolve`, { outcome: pick(['YES', 'NO']) });

    // Every transaction presented (again): whatever a kill interrupted is accounted for now.
    for (const tx of world.sent) expect(await tx.present(), `present ${tx.sig} (${trace.join(' ')})`).not.toBeNull();
    const settled = async () => {
      for (const status of ['pending', 'sent', 'awaiting_funds', 'failed'])
        if ((await world.get(`/v2/admin/outbound?status=${status}`)).body.data.length) return false;
      return (await world.get('/v2/admin/family-a/transfers?state=held')).body.data.length === 0;
    };
    for (let i = 0; i < 300 && !(await settled()); i++) await sleep(100);
    expect(await settled(), `settled (${trace.join(' ')})`).toBe(true);

    await expectEveryUnitAccounted(world, { wallets, markets, fake, usdc0: USDC0, fake0: FAKE0 }, trace);
    expect(world.kills).toHaveLength(2);
    const states = (await world.get('/v2/admin/family-a/money')).body.data.counts.transfers.map(
      (c: { state: string; count: number }) => `${c.state}=${c.count}`,
    );
    console.log(
      `family-a money property: seed ${SEED}, ${world.sent.length} transactions, transfers ${states.join(' ')}; trace: ${trace.join(' ')}`,
    );
  }, 240_000);
});
