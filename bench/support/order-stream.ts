/** The orderbook bench's order stream: deterministic, the same for every engine and every run. */
import { rng } from '../../test/helpers/rng.js';

export { rng };

export interface StreamOrder {
  id: string;
  buy: boolean;
  price: number;
  size: number;
  /**
   * `size` in raw units (× 10^6) as a bigint, the quantity type of our engine's API: made with the
   * stream, before any timing, as `size` is for the engines that take numbers.
   */
  quantity: bigint;
}

export function makeStream(count: number): StreamOrder[] {
  const random = rng(12);
  const orders: StreamOrder[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const buy = random() < 0.5;
    // Bids below 5000, asks above, with a spread of offsets tuned so ~29 % of orders cross.
    const offset = Math.floor(random() * 200) - 68;
    const size = 1 + Math.floor(random() * 100);
    orders[i] = { id: `o${i}`, buy, price: buy ? 5000 - offset : 5001 + offset, size, quantity: BigInt(size) * 1_000_000n };
  }
  return orders;
}
