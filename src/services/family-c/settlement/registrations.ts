/**
 * Orders whose registration transaction is in flight, by OrderState address (this process's
 * view). A fill that needs such an order waits for the registration to land instead of carrying
 * the same ~305-byte proof again. Memory only: after a restart a registration may be planned
 * twice, which the program accepts (an order account that exists with the same message is left
 * as it is).
 */
export class RegistrationsInFlight {
  private readonly byOrder = new Map<string, string>();

  add(batchId: string, orderAddresses: readonly string[]): void {
    for (const a of orderAddresses) this.byOrder.set(a, batchId);
  }

  has(orderAddress: string): boolean {
    return this.byOrder.has(orderAddress);
  }

  /** The batch ended (landed, refused or abandoned): its orders are on chain or will be registered again. */
  end(batchId: string): void {
    for (const [a, b] of this.byOrder) if (b === batchId) this.byOrder.delete(a);
  }
}
