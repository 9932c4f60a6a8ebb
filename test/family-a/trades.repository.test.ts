// Payments, claims, quotes and outbound rows on both dialects: the unique constraints that make
// delivery exactly-once, and the compare-and-set that keeps two workers from rebuilding at once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { findClaim, findPaymentBySignature, findQuote, insertClaim, insertPayment, insertQuote } from '../../db/repositories/family-a-trades.repository.js';
import { findOutbound, insertOutbound, listUnfinishedOutbound, markOutbound, storeBuilt } from '../../db/repositories/outbound-transactions.repository.js';
import { isUniqueViolation } from '../../src/services/family-a/x402-payment.verifier.js';
import { DIALECTS } from '../helpers/databases.js';

describe.each(DIALECTS.filter((d) => d.available))('Family A repositories on $name', ({ open }) => {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });
  const now = () => new Date().toISOString();

  it('stores quotes and finds them by their exact issuedAt', async () => {
    const issued = now();
    await insertQuote(db.db, { id: randomUUID(), market_id: 'm1', wallet: 'w', side: 'YES', kind: 'buy', amount_raw: 1_000_000n, issued_at: issued, expires_at: issued });
    expect((await findQuote(db.db, { marketId: 'm1', wallet: 'w', side: 'YES', kind: 'buy', issuedAt: issued }))?.amount_raw).toBe(1_000_000n);
    expect(await findQuote(db.db, { marketId: 'm1', wallet: 'w', side: 'NO', kind: 'buy', issuedAt: issued })).toBeUndefined();
  });

  it('refuses a second payment with the same signature and a second claim per market and wallet', async () => {
    const row = { id: randomUUID(), signature: 'sig-1', kind: 'buy' as const, market_id: 'm1', wallet: 'w', side: 'YES' as const, paid_raw: 1n, deliver_raw: 2n, quote_id: null, outbound_id: null, created_at: now() };
    await insertPayment(db.db, row);
    const dup = await insertPayment(db.db, { ...row, id: randomUUID() }).catch((e: unknown) => e);
    expect(isUniqueViolation(dup)).toBe(true);
    expect((await findPaymentBySignature(db.db, 'sig-1'))?.deliver_raw).toBe(2n);
    const claim = { id: randomUUID(), market_id: 'm1', wallet: 'w', transfer_signature: 't-1', token_amount_raw: 5n, payout_raw: 3n, outbound_id: 'o', claimed_at: now() };
    await insertClaim(db.db, claim);
    expect(isUniqueViolation(await insertClaim(db.db, { ...claim, id: randomUUID(), transfer_signature: 't-2' }).catch((e: unknown) => e))).toBe(true);
    expect((await findClaim(db.db, 'm1', 'w'))?.transfer_signature).toBe('t-1');
  });

  it('lets only one worker store rebuilt bytes for an intent', async () => {
    const id = randomUUID();
    await insertOutbound(db.db, { id, idempotencyKey: `k-${id}`, purpose: 'p', params: '{}', now: now() });
    const built = (signature: string) => ({ signature, rawTx: 'AA==', blockhash: 'bh', lastValidBlockHeight: 10, now: now() });
    expect(await storeBuilt(db.db, id, null, built('s1'))).toBe(true);
    expect(await storeBuilt(db.db, id, null, built('s2'))).toBe(false);
    expect(await storeBuilt(db.db, id, 's1', built('s3'))).toBe(true);
    expect(await storeBuilt(db.db, id, 's1', built('s4'))).toBe(false);
    expect((await findOutbound(db.db, id))?.last_valid_block_height).toBe(10n);
    expect((await listUnfinishedOutbound(db.db, new Date(Date.now() + 1000).toISOString(), 100)).map((r) => r.id)).toContain(id);
    await markOutbound(db.db, id, 'confirmed', { now: now(), bumpAttempts: true });
    await markOutbound(db.db, id, 'sent', { now: now() }); // a late writer cannot undo a confirmation
    const row = (await findOutbound(db.db, id))!;
    expect(row.status).toBe('confirmed');
    expect(row.attempts).toBe(1);
  });
});
