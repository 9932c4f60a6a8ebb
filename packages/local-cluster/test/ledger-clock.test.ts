/**
 * The ledger clock's blockhashes (ledger-clock.ts): each slot's tick asks for the last 150 slots'
 * hashes (the SlotHashes sysvar), now answered from the hashes the clock remembers. They must be
 * exactly the derived ones (SHA-256 of the seed and the height, in base58) at every height, after
 * any number of slots, for heights it has forgotten, and across a restart from the same seed; and
 * validity and expiry answer as before.
 */
import { createHash, randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { LedgerClock, MAX_PROCESSING_AGE } from '../src/ledger-clock.js';
import { EmbeddedLedger } from '../src/ledger.js';

function derived(seed: Buffer, height: number): string {
  const buf = Buffer.alloc(8);
  buf.writeBigUInt64LE(BigInt(height));
  return bs58.encode(createHash('sha256').update(seed).update(buf).digest());
}

describe('ledger clock blockhashes', () => {
  it('are the derived hashes at every height, remembered or not, before and after slots and a restart', () => {
    const seed = randomBytes(32);
    const clock = new LedgerClock(seed, 40, 0);
    const check = (c: LedgerClock) => {
      for (let h = 0; h <= c.slot + 3; h++) expect(c.blockhashAt(h)).toBe(derived(seed, h));
      expect(c.latest().blockhash).toBe(derived(seed, c.slot));
    };
    check(clock);
    for (const step of [1, 7, 150, 151, 300, 2]) {
      clock.advance(step);
      check(clock);
    }
    // Valid within the window, expired past it, unknown past twice the window.
    expect(clock.isValid(derived(seed, clock.slot - MAX_PROCESSING_AGE))).toBe(true);
    expect(clock.isValid(derived(seed, clock.slot - MAX_PROCESSING_AGE - 1))).toBe(false);
    expect(clock.isValid(derived(seed, clock.slot - 3 * MAX_PROCESSING_AGE))).toBe(false);
    check(new LedgerClock(seed, clock.slot, 0));
  });

  it("fills SlotHashes with the last 150 slots' derived hashes, newest first", async () => {
    const ledger = await EmbeddedLedger.open({ slotMs: 60_000 });
    try {
      const seed = (ledger as unknown as { clock: { seed: Buffer } }).clock.seed;
      for (const step of [0, 1, 200]) {
        ledger.advanceSlots(step);
        const slot = ledger.slot;
        const svm = (ledger as unknown as { svm: { getSlotHashes(): { slot: bigint; hash: string }[] } }).svm;
        const want = Array.from({ length: Math.min(150, slot + 1) }, (_, i) => ({ slot: BigInt(slot - i), hash: derived(seed, slot - i) }));
        expect(svm.getSlotHashes().map((e) => ({ slot: e.slot, hash: String(e.hash) }))).toEqual(want);
      }
    } finally {
      await ledger.close();
    }
  });
});
