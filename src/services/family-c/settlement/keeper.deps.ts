/** What the settlement keeper needs beyond Family C's context: the event bus and its follow-ups. */
import type { Logger } from 'pino';
import type { FeeConfig } from '../../../domain/orderbook/index.js';
import type { FamilyCContext } from '../context.js';
import type { ClobEventBus } from '../events/event-bus.js';
import type { PlanRequests } from './plan-requests.js';
import type { ProofsInFlight } from './proofs-in-flight.js';

export interface KeeperDeps {
  c: FamilyCContext;
  bus: ClobEventBus;
  log: Logger;
  fees: FeeConfig;
  /** Most batches of one market in flight at once. */
  maxBatchesInFlight: number;
  /** Orders whose proof is in a batch in flight (their other fills wait for it). */
  proofsInFlight: ProofsInFlight;
  /** Planning requests made in this process while a market's planning job may be running. */
  planRequests: PlanRequests;
  /**
   * While a group of batches lands: gathers the token-account changes its transactions make into
   * one index job (one reaction per owner per group, not per transaction); the release hands them on.
   */
  holdAccountChanges(): () => void;
  /**
   * After fills of a market ended: plan its next batch, update positions, and the candles when
   * `fillsFailed` (a fill settled or back in the queue counts in them as it did since its match).
   */
  afterSettlement(marketId: string | undefined, ended: { fillsFailed: boolean }): Promise<void>;
  /** An owner's smart wallet could not pay a fill: cancel their resting orders in every market. */
  cancelOwnerEverywhere(owner: string): Promise<void>;
  /** One order the chain can never settle (its proof is refused): cancel it through its market's matcher. */
  cancelOrder(marketId: string, orderId: string): Promise<void>;
}
