/**
 * Delivery of the embedded ledger's account events to the daemon's subscriptions. Every market
 * adds token-program subscriptions for its outcome mints (memcmp of the mint at offset 0), so a
 * daemon with a thousand markets had thousands of ledger listeners, each called for every
 * changed account of every transaction, each decoding its mint from base58 to compare it. Here
 * one ledger listener routes each event by address, by owner program, and for a program's
 * subscriptions keyed by the 32 bytes at offset 0 (a mint, for token accounts) by those bytes:
 * an event visits only the subscriptions it can match, whose filters are compiled once.
 *
 * As with one emitter listener per subscription: a subscription added or removed while an event
 * is delivered takes effect from the next event, and a failing listener neither stops the others
 * nor reaches the sender; its error is rethrown after them, for the ledger to log.
 */
import type { CompiledFilter, StoredAccount } from '@pmx/local-cluster';
import type { Unsubscribe } from '../chain-client.js';
import { matchesFilters } from './account-filters.js';

export interface AccountEvent {
  address: string;
  account: StoredAccount | null;
  slot: number;
}

type Deliver = (address: string, account: StoredAccount, slot: number) => void;

interface Route {
  filters: readonly CompiledFilter[];
  deliver: Deliver;
}

const KEY_BYTES = 32;

/** The bytes a subscription's filters pin at offset 0, as a map key; null when they pin none. */
function routeKey(filters: readonly CompiledFilter[]): string | null {
  const pinned = filters.find((f) => f.memcmp?.offset === 0 && f.memcmp.bytes.length === KEY_BYTES);
  return pinned ? Buffer.from(pinned.memcmp!.bytes).toString('latin1') : null;
}

function addTo<K>(map: Map<K, Set<Route>>, key: K, route: Route): () => void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(route);
  return () => {
    set.delete(route);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}

export class AccountRoutes {
  private readonly byAddress = new Map<string, Set<Route>>();
  private readonly byProgram = new Map<string, Set<Route>>();
  /** `program` + ' ' + the latin1 text of the 32 bytes its filters pin at offset 0. */
  private readonly byProgramKey = new Map<string, Set<Route>>();
  private routes = 0;
  private detach: Unsubscribe | undefined;

  /** `attach` subscribes one listener to the ledger's account events and returns its removal. */
  constructor(private readonly attach: (listener: (e: AccountEvent) => void) => Unsubscribe) {}

  /** Changes of one account (not its closing). */
  account(address: string, deliver: Deliver): Unsubscribe {
    return this.add(addTo(this.byAddress, address, { filters: [], deliver }));
  }

  /** Changes of `program`'s accounts that match `filters` (not their closing). */
  program(program: string, filters: readonly CompiledFilter[], deliver: Deliver): Unsubscribe {
    const key = routeKey(filters);
    const route = { filters, deliver };
    return this.add(key === null ? addTo(this.byProgram, program, route) : addTo(this.byProgramKey, `${program} ${key}`, route));
  }

  private add(remove: () => void): Unsubscribe {
    if (this.routes++ === 0) this.detach = this.attach(this.dispatch);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      remove();
      if (--this.routes === 0) {
        this.detach?.();
        this.detach = undefined;
      }
    };
  }

  private readonly dispatch = (e: AccountEvent): void => {
    const account = e.account;
    if (!account) return;
    const data = account.data;
    const keyed =
      data.length >= KEY_BYTES && this.byProgramKey.size > 0
        ? this.byProgramKey.get(`${account.owner} ${Buffer.from(data.buffer, data.byteOffset, KEY_BYTES).toString('latin1')}`)
        : undefined;
    // Copied first: what a listener subscribes or unsubscribes applies from the next event on.
    const routes = [...(this.byAddress.get(e.address) ?? []), ...(this.byProgram.get(account.owner) ?? []), ...(keyed ?? [])];
    const errors: unknown[] = [];
    for (const route of routes) {
      if (!matchesFilters(data, route.filters)) continue;
      try {
        route.deliver(e.address, account, e.slot);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} account listeners failed`);
  };
}
