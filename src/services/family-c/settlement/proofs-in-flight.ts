/**
 * Orders whose proof travels in a batch in flight (a settle carrying it inline, or a
 * registration), by OrderState address (this process's view). A fill that needs such an order
 * waits for that batch to land instead of carrying the same ~305-byte proof again. Memory only,
 * so two things can happen, both harmless: after a restart (or when another process planned it)
 * an order's proof may travel twice, which the program accepts (an order account that exists with
 * the same message is left as it is); and a batch that ends in another process never calls `end`
 * here, so an entry also lapses after `ttlMs` — a batch still not landed by then has been retried
 * or abandoned, and its orders may be proven again.
 *
 * The planner names each entry's order id (`name`), so that its window read leaves out the fills
 * of those orders (`waitingOrderIds`): a fill that waits never takes a place in the window.
 */
export class ProofsInFlight {
  private readonly byOrder = new Map<string, { batchId: string; at: number; order?: { id: string; marketId: string } }>();

  constructor(
    private readonly ttlMs = 120_000,
    private readonly now: () => number = Date.now,
  ) {}

  add(batchId: string, orderAddresses: readonly string[]): void {
    if (orderAddresses.length === 0) return;
    const at = this.now();
    for (const [a, e] of this.byOrder) if (at - e.at > this.ttlMs) this.byOrder.delete(a);
    for (const a of orderAddresses) this.byOrder.set(a, { batchId, at });
  }

  has(orderAddress: string): boolean {
    const e = this.byOrder.get(orderAddress);
    return e !== undefined && this.now() - e.at <= this.ttlMs;
  }

  /** Names the order (database id, market) whose proof is in flight at this address; an address not in flight is ignored. */
  name(orderAddress: string, order: { id: string; marketId: string }): void {
    const e = this.byOrder.get(orderAddress);
    if (e) e.order = order;
  }

  /**
   * Ids of this market's named orders whose proof is in flight now: at most two per batch in
   * flight (a transaction carries two proofs), so the list stays as small as the room in flight.
   */
  waitingOrderIds(marketId: string): string[] {
    const at = this.now();
    const ids: string[] = [];
    for (const e of this.byOrder.values()) if (e.order?.marketId === marketId && at - e.at <= this.ttlMs) ids.push(e.order.id);
    return ids;
  }

  /** The batch ended (landed, refused or abandoned): its orders are on chain or will be proven again. */
  end(batchId: string): void {
    for (const [a, e] of this.byOrder) if (e.batchId === batchId) this.byOrder.delete(a);
  }
}
