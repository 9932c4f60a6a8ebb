/**
 * What follows the index recording a change to a smart wallet's token account (a deposit, a
 * settlement, a split, a merge, a redemption), in this order:
 * 1. the owner's resting orders are checked against what the wallet now holds, and those it no
 *    longer covers cancelled (wallet-coverage.service.ts);
 * 2. then the owner's `balance:update` event, which so shows what is left;
 * 3. positions are brought up to date (a redemption shows in the index). Enqueued; a failure to
 *    enqueue is logged and the positions schedule catches up.
 * An account that belongs to no known smart wallet changes nothing.
 * The owners of one index job (a settlement group's: the taker and its makers) are handled
 * together: one read of each kind for all of them, one publish, one positions request (they were
 * each one reaction of about ten statements, issue 31). Each owner's own order is kept: its
 * cancels are published before its balance.
 */
import { PublicKey } from '@solana/web3.js';
import { ownersWithRestingOrdersAmong } from '../../../db/repositories/clob-commitments.repository.js';
import { findClobWalletsByEscrows } from '../../../db/repositories/clob-wallets.repository.js';
import type { FamilyCContext } from './context.js';
import type { ClobEventBus } from './events/event-bus.js';
import type { MatcherPort } from './matcher/matcher.port.js';
import { balancesViews } from './smart-wallet.service.js';
import { coverWallet } from './wallet-coverage.service.js';

export interface BalanceChangeDeps {
  ctx: FamilyCContext;
  bus: Pick<ClobEventBus, 'publishUser'>;
  matcher: MatcherPort;
  updatePositions(reason: string): Promise<void>;
}

/** `escrow`: the token account's owner as indexed (a smart wallet's escrow PDA), null if unknown. */
export async function tokenAccountChanged(deps: BalanceChangeDeps, escrow: string | null): Promise<void> {
  await tokenAccountsChanged(deps, [escrow]);
}

/** The reaction to several owners' changes at once (see the module comment), in the order given. */
export async function tokenAccountsChanged(deps: BalanceChangeDeps, escrows: ReadonlyArray<string | null>): Promise<void> {
  const known = [...new Set(escrows.filter((e): e is string => e !== null))];
  if (known.length === 0) return;
  // One lookup of the wallets serves both steps.
  const found = new Map((await findClobWalletsByEscrows(deps.ctx.db, known)).map((w) => [w.escrow, w.owner]));
  const owners = known.flatMap((e) => (found.has(e) ? [found.get(e)!] : []));
  if (owners.length === 0) return;
  // An owner with no resting order has nothing to cover: coverWallet would read that and stop.
  const resting = await ownersWithRestingOrdersAmong(deps.ctx.db, owners);
  for (const owner of owners) if (resting.has(owner)) await coverWallet(deps.ctx, deps.matcher, owner);
  const balances = await balancesViews(
    deps.ctx,
    owners.map((o) => new PublicKey(o)),
  );
  const timestamp = Date.now();
  await deps.bus.publishUser(balances.map((balance, i) => ({ event: 'balance:update' as const, owner: owners[i]!, balance, timestamp })));
  await deps.updatePositions('balance').catch((err: Error) => deps.ctx.log.warn({ err }, 'could not enqueue positions'));
}
