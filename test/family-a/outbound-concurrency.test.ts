/**
 * Two jobs for one outbound row at the same moment (the start-up dispatch and the resume scan do
 * this on every fresh start): one builds and sends, the other follows its signature; both end
 * `confirmed`, neither fails (a failed job used to be logged on every start), delivery is once.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOutbound } from '../../db/repositories/outbound-transactions.repository.js';
import { familyABuilders, PURPOSES } from '../../src/services/family-a/family-a.builders.js';
import type { FamilyADeps } from '../../src/services/family-a/family-a.deps.js';
import { FamilyAKeys } from '../../src/services/family-a/family-a.keys.js';
import { recordOutboundIntent } from '../../src/services/outbound/outbound-intents.js';
import { OutboundSender } from '../../src/services/outbound/outbound-sender.js';
import { createHarness, createMarket, fundedUser, tokenBalance, type Harness } from './family-a.harness.js';

let h: Harness;
let market: Awaited<ReturnType<typeof createMarket>>;
beforeAll(async () => {
  h = await createHarness();
  market = await createMarket(h);
});
afterAll(async () => h?.close());

describe('concurrent jobs for one outbound row', () => {
  it('both confirm, the tokens arrive once', async () => {
    const deps: FamilyADeps = {
      db: h.ctx.db,
      dialect: h.ctx.dialect,
      chain: h.client,
      usdcMint: h.usdcMint,
      treasury: h.ctx.chain.wallets.treasury,
      keys: FamilyAKeys.load(h.ctx.config.keysDir),
      settings: {} as FamilyADeps['settings'],
      log: pino({ level: 'silent' }),
      dispatchOutbound: async () => {},
    };
    const sender = () =>
      new OutboundSender(h.ctx.db, h.client, familyABuilders(deps), pino({ level: 'silent' }), { confirmTimeoutMs: 5_000, pollMs: 20 });
    const owner = (await fundedUser(h, 0n)).publicKey.toBase58();
    const id = await recordOutboundIntent(h.ctx.db, {
      idempotencyKey: `race-${owner}`,
      purpose: PURPOSES.deliverTokens,
      params: { mint: market.cas.Yes, owner, amountRaw: '3000000' },
    });
    const results = await Promise.allSettled([sender().process(id), sender().process(id), sender().process(id)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const signatures = new Set(results.map((r) => (r as PromiseFulfilledResult<{ signature: string | null }>).value.signature));
    expect(signatures.size).toBe(1);
    expect((await findOutbound(h.ctx.db, id))!.status).toBe('confirmed');
    expect(await tokenBalance(h, owner, market.cas.Yes)).toBe(3_000_000n);
  });
});
