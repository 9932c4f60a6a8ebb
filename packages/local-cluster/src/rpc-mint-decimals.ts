/**
 * Decimals per mint for jsonParsed / uiTokenAmount answers. Reading and decoding the mint
 * account costs ~14 µs per token answer, more than the rest of getTokenAccountBalance; decimals
 * only change if the mint account itself changes (closed and re-created), so the cache drops a
 * mint's entry on every ledger event for that address. Call `detach()` when the server closes.
 */
import type { EmbeddedLedger } from './ledger.js';

const LIMIT = 10_000;

export class MintDecimals {
  private readonly cache = new Map<string, number>();
  private readonly onAccount = (e: { address: string }) => {
    this.cache.delete(e.address);
  };

  constructor(private readonly ledger: EmbeddedLedger) {
    ledger.events.on('account', this.onAccount);
  }

  /** The mint's decimals, 0 for an address that is not a mint (as before the cache). */
  readonly of = (mint: string): number => {
    let d = this.cache.get(mint);
    if (d === undefined) {
      const supply = this.ledger.getTokenSupply(mint);
      d = supply?.decimals ?? 0;
      if (supply) {
        if (this.cache.size >= LIMIT) this.cache.clear();
        this.cache.set(mint, d);
      }
    }
    return d;
  };

  detach(): void {
    this.ledger.events.off('account', this.onAccount);
  }
}
