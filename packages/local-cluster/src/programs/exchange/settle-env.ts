/** What every step of one settle instruction shares, and how it refuses (@pmx/programs' docs/programs.md, "settle"). */
import type { PublicKey } from '@solana/web3.js';
import {
  type ClobMarketAccount,
  type ExchangeErrorName,
  type FeeConfig,
  formatFillRefusal,
  formatOrderRefusal,
  type OrderMessage,
  type OrderStateAccount,
  type SettleParty,
} from '@pmx/programs';
import type { InvocationContext } from '../../program-runtime.js';
import { fail } from './guard.js';

export interface SettleEnv {
  ctx: InvocationContext;
  programId: PublicKey;
  operator: PublicKey;
  marketKey: PublicKey;
  /** The market as this instruction leaves it (complete_sets moves with every mint and merge). */
  market: ClobMarketAccount;
  vault: PublicKey;
  usdcMint: PublicKey;
  feeUsdc: PublicKey;
  fees: FeeConfig;
  /** Fill ids (text) per order index, for refusals that name an order. */
  fillIdsByOrder: string[][];
  /** Runs what must precede a refusal's log line (the new orders' creations kept for one run, settle-orders.ts). */
  beforeRefusal?: (() => void) | undefined;
}

export interface LoadedOrder {
  index: number;
  key: PublicKey;
  bump: number;
  owner: PublicKey;
  message: OrderMessage;
  /** The account as it will be written at the end (running totals included). */
  state: OrderStateAccount;
  escrow: PublicKey;
  escrowUsdc: PublicKey;
  escrowOutcome: PublicKey;
  outcomeMint: PublicKey;
}

export function refuseFill(
  env: SettleEnv,
  error: ExchangeErrorName,
  fillId: string,
  who: { party: SettleParty; order: LoadedOrder } | null,
  detail: string,
): never {
  env.beforeRefusal?.();
  env.ctx.log(formatFillRefusal(error, fillId, who?.party ?? null, who?.order.owner.toBase58() ?? null, detail));
  fail(error, detail);
}

export function refuseOrder(
  env: SettleEnv,
  error: ExchangeErrorName,
  index: number,
  key: PublicKey,
  owner: PublicKey | null,
  detail: string,
): never {
  env.beforeRefusal?.();
  env.ctx.log(formatOrderRefusal(error, key.toBase58(), owner?.toBase58() ?? null, env.fillIdsByOrder[index] ?? [], detail));
  fail(error, detail);
}
