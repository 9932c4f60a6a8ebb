/**
 * Slots, block height, recent blockhashes and the unix clock of the embedded cluster.
 * One block per slot (no skipped slots), so block height == slot. Blockhashes are derived from a
 * per-ledger seed and the height, so the recent-blockhash queue survives a restart without being
 * stored: a transaction signed just before a restart is still valid after it, as on a real node.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';

/** A blockhash stays valid for this many blocks after the block that produced it (as on mainnet). */
export const MAX_PROCESSING_AGE = 150;
const EARLY_EXPIRY_AGE = 2;

export class LedgerClock {
  private readonly heights = new Map<string, number>();
  /**
   * The blockhash of every height `heights` holds. Each slot's tick writes the last 150 slots'
   * hashes into the SlotHashes sysvar (runtime-sysvars.ts): a SHA-256 and a base58 text each,
   * ~1 ms a tick, on the event loop, every 400 ms, for hashes that were all made before.
   */
  private readonly byHeight = new Map<number, string>();
  private height: number;
  /** Fault injection: blockhashes expire after two blocks instead of 150. */
  expireEarly = false;

  constructor(
    private readonly seed: Buffer,
    startHeight: number,
    public timeOffsetSec: number,
  ) {
    this.height = startHeight;
    for (let h = Math.max(0, startHeight - MAX_PROCESSING_AGE); h <= startHeight; h++) this.remember(h);
  }

  get slot(): number {
    return this.height;
  }

  get blockHeight(): number {
    return this.height;
  }

  unixTimestamp(): number {
    return Math.floor(Date.now() / 1000) + this.timeOffsetSec;
  }

  advance(blocks = 1): void {
    for (let i = 0; i < blocks; i++) {
      this.height += 1;
      this.remember(this.height);
    }
  }

  latest(): { blockhash: string; lastValidBlockHeight: number } {
    return { blockhash: this.blockhashAt(this.height), lastValidBlockHeight: this.height + this.maxAge() };
  }

  isValid(blockhash: string): boolean {
    const h = this.heights.get(blockhash);
    return h !== undefined && this.height - h <= this.maxAge();
  }

  blockhashAt(height: number): string {
    return this.byHeight.get(height) ?? this.derive(height);
  }

  private derive(height: number): string {
    const buf = Buffer.alloc(8);
    buf.writeBigUInt64LE(BigInt(height));
    return bs58.encode(createHash('sha256').update(this.seed).update(buf).digest());
  }

  private maxAge(): number {
    return this.expireEarly ? EARLY_EXPIRY_AGE : MAX_PROCESSING_AGE;
  }

  private remember(height: number): void {
    const hash = this.blockhashAt(height);
    this.heights.set(hash, height);
    this.byHeight.set(height, hash);
    // Keep twice the window so "expired" stays distinguishable from "never seen" for a while.
    const oldHeight = height - 2 * MAX_PROCESSING_AGE;
    if (oldHeight >= 0) {
      this.heights.delete(this.blockhashAt(oldHeight));
      this.byHeight.delete(oldHeight);
    }
  }
}
