/**
 * What follows the index recording a change to a smart wallet's token account (a deposit, a
 * settlement, a split, a merge, a redemption), in this order:
 * 1. the owner's resting orders are checked against what the wallet now holds, and those it no
 *    longer covers cancelled (wallet-coverage.service.ts);
 * 2. then the owner's `balance:update` event, which so shows what is left;
 * 3. positions are brought up to date (a redemption shows in the index). Enqueued; a failure to
 *    enqueue is logged and the positions schedule catches up.
 * An account that belongs to no known smart wallet changes nothing.
 */
import { PublicKey } from '@solana/web3.js';
import { findClobWalletByEscrow } from '../../../db/repositories/clob-wallets.repository.js';
import type { FamilyCContext } from './context.js';
import type { ClobEventBus } from './events/event-bus.js';
import type { MatcherPort } from './matcher/matcher.port.js';
import { balancesView } from './smart-wallet.service.js';
import { coverWallet } from './wallet-coverage.service.js';

export interface BalanceChangeDeps {
  ctx: FamilyCContext;
  bus: Pick<ClobEventBus, 'publishUser'>;
  matcher: MatcherPort;
  updatePositions(reason: string): Promise<void>;
}

/** `escrow`: the token account's owner as indexed (a smart wallet's escrow PDA), null if unknown. */
export async function tokenAccountChanged(deps: BalanceChangeDeps, escrow: string | null): Promise<void> {
  if (!escrow) return;
  // One lookup of the wallet serves both steps (each looked it up by escrow: two per reaction).
  const wallet = await findClobWalletByEscrow(deps.ctx.db, escrow);
  if (!wallet) return;
  await coverWallet(deps.ctx, deps.matcher, wallet.owner);
  const balance = await balancesView(deps.ctx, new PublicKey(wallet.owner));
  await deps.bus.publishUser([{ event: 'balance:update', owner: wallet.owner, balance, timestamp: Date.now() }]);
  await deps.updatePositions('balance').catch((err: Error) => deps.ctx.log.warn({ err }, 'could not enqueue positions'));
}
