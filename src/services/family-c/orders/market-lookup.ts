/**
 * Order intake's market lookup by the message's market pubkey, cached for a second: every order
 * names its market, and the catalog row changes rarely (status only, which the matcher checks
 * again under its lock). Unknown pubkeys are not cached, so a market created a moment ago is found.
 */
import { findClobMarketByPubkey, type ClobMarketRow } from '../../../../db/repositories/clob-markets.repository.js';
import type { FamilyCContext } from '../context.js';

const TTL_MS = 1_000;
const MAX = 4_096;

export class MarketLookup {
  private readonly cache = new Map<string, { row: ClobMarketRow; until: number }>();

  constructor(private readonly ctx: Pick<FamilyCContext, 'db'>) {}

  async byPubkey(pubkey: string): Promise<ClobMarketRow | undefined> {
    const hit = this.cache.get(pubkey);
    const now = Date.now();
    if (hit && hit.until > now) return hit.row;
    const row = await findClobMarketByPubkey(this.ctx.db, pubkey);
    if (row) {
      if (this.cache.size >= MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(pubkey, { row, until: now + TTL_MS });
    }
    return row;
  }
}
