/**
 * The line settle logs before it refuses, naming what the keeper must act on: the fill (and,
 * for a balance shortfall, whether the taker's or the maker's smart wallet lacks funds) or the
 * order whose fills cannot settle. A batch is all or nothing, so the keeper reads this line
 * (from the simulation or the failed transaction's logs) to set the one fill aside.
 *
 *   Program log: settle refused: fill=<uuid> party=<taker|maker|-> owner=<base58|-> error=<Name>: <detail>
 *   Program log: settle refused: order=<address> owner=<base58|-> fills=<uuid,uuid|-> error=<Name>: <detail>
 */
export const SETTLE_REFUSAL_PREFIX = 'settle refused: ';

export type SettleParty = 'taker' | 'maker';

export interface SettleRefusal {
  /** The exchange error name (e.g. InsufficientBalance, OrderExpired, FillAlreadySettled). */
  error: string;
  /** The fills it concerns: one for a fill refusal, every fill of the order in that instruction for an order refusal. */
  fillIds: string[];
  party: SettleParty | null;
  owner: string | null;
  /** The order account, for an order refusal. */
  order: string | null;
  detail: string;
}

export function formatFillRefusal(error: string, fillId: string, party: SettleParty | null, owner: string | null, detail: string): string {
  return `${SETTLE_REFUSAL_PREFIX}fill=${fillId} party=${party ?? '-'} owner=${owner ?? '-'} error=${error}: ${detail}`;
}

export function formatOrderRefusal(error: string, order: string, owner: string | null, fillIds: readonly string[], detail: string): string {
  return `${SETTLE_REFUSAL_PREFIX}order=${order} owner=${owner ?? '-'} fills=${fillIds.length ? fillIds.join(',') : '-'} error=${error}: ${detail}`;
}

const FILL_RE = /settle refused: fill=(\S+) party=(taker|maker|-) owner=(\S+) error=(\w+): (.*)$/;
const ORDER_RE = /settle refused: order=(\S+) owner=(\S+) fills=(\S+) error=(\w+): (.*)$/;
const dash = (s: string) => (s === '-' ? null : s);

/** The refusal in a failed settle transaction's logs, or null when it failed otherwise. */
export function parseSettleRefusal(logs: readonly string[]): SettleRefusal | null {
  for (const line of logs) {
    const f = FILL_RE.exec(line);
    if (f)
      return { error: f[4]!, fillIds: [f[1]!], party: dash(f[2]!) as SettleParty | null, owner: dash(f[3]!), order: null, detail: f[5]! };
    const o = ORDER_RE.exec(line);
    if (o)
      return { error: o[4]!, fillIds: o[3] === '-' ? [] : o[3]!.split(','), party: null, owner: dash(o[2]!), order: o[1]!, detail: o[5]! };
  }
  return null;
}
