/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test, read loosely */
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
import { rng, World, xPayment, type Answer, type Market } from './fixtures/family-a-money-world.js';

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

const human = (raw: bigint) => Number(raw) / 1e6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Family A money, property over random sequences with kill -9', () => {
  it(`accounts for every raw unit (seed ${SEED})`, async () => {
    const rand = rng(SEED);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const amount = () => BigInt(1 + Math.floor(rand() * 300)) * 10_000n; // 0.01–3 USDC, whole cents: no odd payment ever matches a quote

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

    const mint = (m: Market, side: 'YES' | 'NO') => (side === 'YES' ? m.yesMint : m.noMint);
    const optionWallet = (m: Market, side: 'YES' | 'NO') => (side === 'YES' ? m.yesWallet : m.noWallet);
    const other = (side: 'YES' | 'NO') => (side === 'YES' ? 'NO' : 'YES');

    async function quote(m: Market, w: Keypair, kind: 'buy' | 'sell', raw: bigint, side: 'YES' | 'NO'): Promise<any | null> {
      await sleep(2); // two quotes of one wallet never share an issuedAt millisecond
      const body =
        kind === 'buy'
          ? { wallet: w.publicKey.toBase58(), amount: human(raw), side }
          : { wallet: w.publicKey.toBase58(), tokenAmount: human(raw), side };
      const a = await world.post(`/v2/markets/${m.slug}/trade/${kind}`, body);
      return a?.status === 402 ? { ...a.body, body } : null;
    }
    const presenter = (m: Market, w: Keypair, kind: 'buy' | 'sell', q: any) => (sig: string) =>
      world.post(`/v2/markets/${m.slug}/trade/${kind}`, q.body, {
        'x-payment': xPayment({
          txHash: sig,
          amount: kind === 'buy' ? q.quote.amount : q.quote.tokenAmount,
          payer: w.publicKey.toBase58(),
          payTo: kind === 'buy' ? q.payment.payTo : q.payment.sendTo,
          asset: kind === 'buy' ? world.usdc.toBase58() : q.payment.tokenMint,
          quoteIssuedAt: q.quote.issuedAt,
        }),
      });
    let claims = 0;
    const liveMarkets = () => markets.filter((m) => live.get(m.slug));

    /** A right buy: quote, pay exactly, present (or crash in between / during). */
    async function buy(crash?: 'between' | 'during'): Promise<void> {
      const m = pick(liveMarkets().length ? liveMarkets() : markets);
      const w = pick(wallets);
      const side = pick(['YES', 'NO'] as const);
      const raw = amount();
      const q = await quote(m, w, 'buy', raw, side);
      if (!q) return;
      const tx = await world.pay(w, [{ mint: world.usdc.toBase58(), toOwner: q.payment.payTo, amount: raw }], presenter(m, w, 'buy', q));
      if (crash === 'between') await world.crash('between a payment and its presentation');
      if (crash === 'during') {
        const inFlight = tx.present();
        await sleep(Math.floor(rand() * 40));
        await world.crash('during a presentation');
        await inFlight;
        return;
      }
      await tx.present();
    }

    const actions: Record<string, () => Promise<void>> = {
      buy: () => buy(),
      async short() {
        const m = pick(markets);
        const w = pick(wallets);
        const side = pick(['YES', 'NO'] as const);
        const raw = amount();
        const q = await quote(m, w, 'buy', raw, side);
        if (q)
          await (
            await world.pay(w, [{ mint: world.usdc.toBase58(), toOwner: q.payment.payTo, amount: raw - 1n }], presenter(m, w, 'buy', q))
          ).present();
      },
      async long() {
        const m = pick(markets);
        const w = pick(wallets);
        const side = pick(['YES', 'NO'] as const);
        const raw = amount();
        const q = await quote(m, w, 'buy', raw, side);
        if (q)
          await (
            await world.pay(
              w,
              [{ mint: world.usdc.toBase58(), toOwner: q.payment.payTo, amount: raw + BigInt(1 + Math.floor(rand() * 9_999)) }],
              presenter(m, w, 'buy', q),
            )
          ).present();
      },
      async wrongWallet() {
        const m = pick(markets);
        const w = pick(wallets);
        const side = pick(['YES', 'NO'] as const);
        const raw = amount();
        const q = await quote(m, w, 'buy', raw, side);
        if (q)
          await (
            await world.pay(
              w,
              [{ mint: world.usdc.toBase58(), toOwner: optionWallet(m, other(side)), amount: raw + 1n }],
              presenter(m, w, 'buy', q),
            )
          ).present();
      },
      async wrongMint() {
        const m = pick(markets);
        const w = pick(wallets);
        const side = pick(['YES', 'NO'] as const);
        const raw = amount();
        const q = await quote(m, w, 'buy', raw, side);
        if (!q) return;
        await world.openAccount(w, fake, q.payment.payTo);
        await (await world.pay(w, [{ mint: fake, toOwner: q.payment.payTo, amount: raw }], presenter(m, w, 'buy', q))).present();
      },
      async hijack() {
        const m = pick(markets);
        const w = pick(wallets);
        const side = pick(['YES', 'NO'] as const);
        const raw = amount() + 10_000n;
        const small = await quote(m, w, 'buy', 10_000n, side);
        const own = await quote(m, w, 'buy', raw, side);
        if (!small || !own) return;
        const tx = await world.pay(
          w,
          [{ mint: world.usdc.toBase58(), toOwner: own.payment.payTo, amount: raw }],
          presenter(m, w, 'buy', own),
        );
        const refused = await presenter(m, w, 'buy', small)(tx.sig);
        if (refused) expect(refused.status, JSON.stringify(refused.body)).toBe(402); // held for `own`, never delivered at the small quote
        await tx.present();
      },
      async twoInOne() {
        if (liveMarkets().length < 2) return;
        const [a, b] = markets as [Market, Market];
        const w = pick(wallets);
        const sa = pick(['YES', 'NO'] as const);
        const sb = pick(['YES', 'NO'] as const);
        const ra = amount();
        const rb = amount();
        const qa = await quote(a, w, 'buy', ra, sa);
        const qb = await quote(b, w, 'buy', rb, sb);
        if (!qa || !qb) return;
        const tx = await world.pay(
          w,
          [
            { mint: world.usdc.toBase58(), toOwner: qa.payment.payTo, amount: ra },
            { mint: world.usdc.toBase58(), toOwner: qb.payment.payTo, amount: rb },
          ],
          presenter(a, w, 'buy', qa),
        );
        await tx.present();
        await presenter(b, w, 'buy', qb)(tx.sig); // already processed: its B part was refunded by the A honour
      },
      async replay() {
        if (world.sent.length) await pick(world.sent).present();
      },
      async concurrent() {
        const m = pick(liveMarkets().length ? liveMarkets() : markets);
        const w = pick(wallets);
        const side = pick(['YES', 'NO'] as const);
        const raw = amount();
        const q = await quote(m, w, 'buy', raw, side);
        if (!q) return;
        const tx = await world.pay(w, [{ mint: world.usdc.toBase58(), toOwner: q.payment.payTo, amount: raw }], presenter(m, w, 'buy', q));
        const answers = await Promise.all([tx.present(), tx.present(), tx.present()]);
        expect(answers.filter((x: Answer | null) => x?.status === 200).length).toBeLessThanOrEqual(1);
      },
      async sell() {
        const candidates = liveMarkets().flatMap((m) => wallets.flatMap((w) => (['YES', 'NO'] as const).map((side) => ({ m, w, side }))));
        const holdings = await Promise.all(candidates.map(async (c) => world.balance(c.w.publicKey.toBase58(), mint(c.m, c.side))));
        const owned = candidates.filter((_, i) => holdings[i]! >= 4_000n);
        if (!owned.length) return;
        const { m, w, side } = pick(owned);
        const held = await world.balance(w.publicKey.toBase58(), mint(m, side));
        const raw = held / BigInt(2 + Math.floor(rand() * 3));
        const q = await quote(m, w, 'sell', raw, side);
        if (!q) return;
        const wrong = rand() < 0.3;
        const to = wrong ? optionWallet(m, other(side)) : q.payment.sendTo;
        if (wrong) await world.openAccount(w, mint(m, side), to);
        await (await world.pay(w, [{ mint: mint(m, side), toOwner: to, amount: raw }], presenter(m, w, 'sell', q))).present();
      },
      async payThenResolve() {
        const m = liveMarkets()[0];
        if (!m) return;
        const w = pick(wallets);
        const side = pick(['YES', 'NO'] as const);
        const raw = amount();
        const q = await quote(m, w, 'buy', raw, side);
        if (!q) return;
        const tx = await world.pay(w, [{ mint: world.usdc.toBase58(), toOwner: q.payment.payTo, amount: raw }], presenter(m, w, 'buy', q));
        await world.admin(`/v2/admin/markets/${m.slug}/resolve`, { outcome: pick(['YES', 'NO']) });
        live.set(m.slug, false);
        await tx.present(); // the market resolved before step 2: refunded
      },
      async claim() {
        const resolved = markets.filter((m) => !live.get(m.slug));
        if (!resolved.length) return;
        const m = pick(resolved);
        let w: Keypair | undefined;
        let info: Answer | null = null;
        for (const candidate of wallets) {
          // a wallet that holds winning tokens and has not claimed
          info = await world.post(`/v2/markets/${m.slug}/claim`, { wallet: candidate.publicKey.toBase58() });
          if (info?.status === 200) {
            w = candidate;
            break;
          }
        }
        if (!w || !info) return;
        const wallet = w.publicKey.toBase58();
        const winning: string = info.body.data.tokenMint;
        const all = await world.balance(wallet, winning);
        const confirm = (sig: string) => world.post(`/v2/markets/${m.slug}/claim/confirm`, { wallet, transferTxHash: sig });
        if (claims++ % 2 === 0 && all > 1n) {
          // every other claim in two transfers
          await (await world.pay(w, [{ mint: winning, toOwner: platform, amount: all / 2n }], confirm)).present(); // partial: credited
          await (await world.pay(w, [{ mint: winning, toOwner: platform, amount: all - all / 2n }], confirm)).present();
        } else {
          await (await world.pay(w, [{ mint: winning, toOwner: platform, amount: all }], confirm)).present();
        }
      },
      async creationUsdcOnly() {
        const present = (sig: string) =>
          world.post(
            '/v2/markets',
            { ...creationBody, marketId: creation.marketId },
            {
              'x-payment': xPayment({
                txHash: sig,
                amount: 1,
                payer: creator.publicKey.toBase58(),
                payTo: platform,
                asset: world.usdc.toBase58(),
              }),
            },
          );
        await (await world.pay(creator, [{ mint: world.usdc.toBase58(), toOwner: platform, amount: 1_000_000n }], present)).present();
      },
    };
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
    for (const m of liveMarkets()) await world.admin(`/v2/admin/markets/${m.slug}/resolve`, { outcome: pick(['YES', 'NO']) });

    // Every transaction presented (again): whatever a kill interrupted is accounted for now.
    for (const tx of world.sent) expect(await tx.present(), `present ${tx.sig} (${trace.join(' ')})`).not.toBeNull();
    const settled = async () => {
      for (const status of ['pending', 'sent', 'awaiting_funds', 'failed'])
        if ((await world.get(`/v2/admin/outbound?status=${status}`)).body.data.length) return false;
      return (await world.get('/v2/admin/family-a/transfers?state=held')).body.data.length === 0;
    };
    for (let i = 0; i < 300 && !(await settled()); i++) await sleep(100);
    expect(await settled(), `settled (${trace.join(' ')})`).toBe(true);

    // 1. Every credit the wallets made to a platform account is delivered value, a refund or a credit.
    const expectedUsdc = new Map(wallets.map((w) => [w.publicKey.toBase58(), USDC0]));
    const expectedTokens = new Map<string, bigint>(); // `${wallet}:${mint}`
    const addTokens = (wallet: string, m: string, delta: bigint) =>
      expectedTokens.set(`${wallet}:${m}`, (expectedTokens.get(`${wallet}:${m}`) ?? (m === fake ? FAKE0 : 0n)) + delta);
    const rawOf = (x: number | null, asset: string) => BigInt(Math.round((x ?? 0) * (asset === 'SOL' ? 1e9 : 1e6)));
    const seen = new Set<string>();
    for (const tx of world.sent) {
      if (seen.has(tx.sig)) continue;
      seen.add(tx.sig);
      const { body } = await world.get(`/v2/payments/${tx.sig}`);
      const p = body.data;
      for (const c of tx.credits) {
        const t = p.transfers.find((x: { to: string }) => x.to === c.account);
        expect(t, `credit of ${tx.sig} to ${c.account} recorded (${trace.join(' ')})`).toBeDefined();
        expect(t.amountRaw).toBe(c.amount.toString());
        expect(['honoured', 'refunded', 'credited', 'claimed']).toContain(t.state);
        const honoured = t.amount === null ? 0n : rawOf(t.honouredAmount, t.asset);
        if (t.state === 'refunded') {
          expect(t.refund.status, JSON.stringify(t)).toBe('confirmed');
          if (c.asset === world.usdc.toBase58()) expectedUsdc.set(tx.wallet, expectedUsdc.get(tx.wallet)! + c.amount - honoured);
          else addTokens(tx.wallet, c.asset, c.amount - honoured);
        } else {
          expect(honoured === c.amount || t.state === 'credited', JSON.stringify(t)).toBe(true);
        }
        if (c.asset === world.usdc.toBase58()) expectedUsdc.set(tx.wallet, expectedUsdc.get(tx.wallet)! - c.amount);
        else addTokens(tx.wallet, c.asset, -c.amount);
      }
      // 2. What an honoured payment delivered is exactly what the rules give for what it moved.
      if (p.kind === 'unhonoured') continue;
      expect(p.status, JSON.stringify(p)).toBe('confirmed');
      const m = markets.find((x) => x.slug === p.slug);
      if (!m) continue; // the creation
      const paid = BigInt(Math.round(p.paidAmount * 1e6));
      const delivered = BigInt(Math.round(p.deliverAmount * 1e6));
      if (p.kind === 'buy') {
        expect(delivered).toBe((paid * 1_000_000n) / m.priceRaw);
        addTokens(p.wallet, mint(m, p.side), delivered);
      } else if (p.kind === 'sell') {
        expect(delivered).toBe((paid * m.priceRaw) / 1_000_000n);
        expectedUsdc.set(p.wallet, expectedUsdc.get(p.wallet)! + delivered);
      } else if (p.kind === 'claim') {
        expect(delivered).toBe((paid * m.limit) / 100_000_000n);
        expectedUsdc.set(p.wallet, expectedUsdc.get(p.wallet)! + delivered);
      }
    }
    // 3. Every wallet holds exactly that: no one received more (or less) than they paid for.
    for (const w of wallets) {
      const wallet = w.publicKey.toBase58();
      expect(await world.balance(wallet, world.usdc), `USDC of ${wallet} (${trace.join(' ')})`).toBe(expectedUsdc.get(wallet));
      for (const m of [...markets.flatMap((x) => [x.yesMint, x.noMint]), fake]) {
        expect(await world.balance(wallet, m), `${m} of ${wallet}`).toBe(expectedTokens.get(`${wallet}:${m}`) ?? (m === fake ? FAKE0 : 0n));
      }
    }
    expect(world.kills).toHaveLength(2);
    const states = (await world.get('/v2/admin/family-a/money')).body.data.counts.transfers.map(
      (c: { state: string; count: number }) => `${c.state}=${c.count}`,
    );
    console.log(
      `family-a money property: seed ${SEED}, ${world.sent.length} transactions, transfers ${states.join(' ')}; trace: ${trace.join(' ')}`,
    );
  }, 240_000);
});
