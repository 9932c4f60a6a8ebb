/**
 * The markets a client wants, by the reference it was given (UUID or slug), and the UUID the
 * daemon answered for each; plus the subscribe frames that name them, each under the daemon's
 * 4 KB frame limit. The wanted set survives reconnects: it is what is sent again on every open.
 */
import { WS_SERVER_LIMITS } from './messages.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Waiter {
  resolve(ids: string[]): void;
  reject(error: Error): void;
  refs: string[];
}

export class Subscriptions {
  /** Reference → market UUID (null until acknowledged, for a slug). */
  private readonly wanted = new Map<string, string | null>();
  /** References the daemon acknowledged at least once. */
  private readonly acked = new Set<string>();
  private waiters: Waiter[] = [];

  get size(): number {
    return this.wanted.size;
  }

  refs(): string[] {
    return [...this.wanted.keys()];
  }

  has(ref: string): boolean {
    return this.wanted.has(ref);
  }

  /** True when some wanted reference names this market UUID. */
  wantsId(id: string): boolean {
    for (const value of this.wanted.values()) if (value === id) return true;
    return false;
  }

  /** The UUID of a reference the client follows (a UUID stands for itself). */
  idOf(ref: string): string | undefined {
    const id = this.wanted.get(ref) ?? (UUID.test(ref) ? ref.toLowerCase() : undefined);
    return id ?? undefined;
  }

  /** Adds references; the promise settles when the daemon acknowledged (or refused) all of them. */
  add(refs: string[]): Promise<string[]> {
    const fresh = refs.filter((r) => !this.wanted.has(r));
    if (this.wanted.size + fresh.length > WS_SERVER_LIMITS.subscriptionsPerConnection) {
      return Promise.reject(
        new RangeError(`at most ${WS_SERVER_LIMITS.subscriptionsPerConnection} markets per connection (the daemon's limit)`),
      );
    }
    for (const ref of fresh) this.wanted.set(ref, UUID.test(ref) ? ref.toLowerCase() : null);
    const acked = new Promise<string[]>((resolve, reject) => this.waiters.push({ resolve, reject, refs: [...refs] }));
    this.settle(); // references acknowledged before settle at once
    return acked;
  }

  /** Removes references; returns the UUIDs no other reference still names. */
  remove(refs: string[]): string[] {
    const ids = refs.map((r) => this.idOf(r)).filter((id): id is string => id !== undefined);
    for (const ref of refs) {
      this.wanted.delete(ref);
      this.acked.delete(ref);
    }
    const still = new Set(this.wanted.values());
    return [...new Set(ids)].filter((id) => !still.has(id));
  }

  /**
   * The daemon's ack for `refs`: its `markets` are their UUIDs in the same order, deduplicated.
   * Returns the references still without a UUID: when a slug and another reference named the
   * same market, the lists differ in length and cannot be paired, so each of those slugs has to
   * be asked again on its own (one reference, one UUID).
   */
  acknowledged(refs: string[], ids: string[]): string[] {
    refs.forEach((ref, i) => {
      if (!this.wanted.has(ref)) return;
      this.acked.add(ref);
      if (refs.length === ids.length) this.wanted.set(ref, ids[i]!);
    });
    this.settle();
    return refs.filter((ref) => this.wanted.get(ref) === null);
  }

  /** The daemon refused these references (unknown market, a limit): they are no longer wanted. */
  refused(refs: string[], error: Error): void {
    for (const ref of refs) {
      this.wanted.delete(ref);
      this.acked.delete(ref);
    }
    const [hit, rest] = partition(this.waiters, (w) => w.refs.some((r) => refs.includes(r)));
    this.waiters = rest;
    for (const w of hit) w.reject(error);
    this.settle();
  }

  /** Rejects every waiting promise (the client closed). */
  abandon(error: Error): void {
    for (const w of this.waiters.splice(0)) w.reject(error);
  }

  private settle(): void {
    const [done, rest] = partition(this.waiters, (w) => w.refs.every((r) => this.acked.has(r) && this.wanted.get(r)));
    this.waiters = rest;
    for (const w of done) w.resolve(w.refs.map((r) => this.wanted.get(r)!));
  }
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

/** `{"type":"subscribe","markets":[…]}` frames (plus `extra` fields) for the references, each under the 4 KB limit. */
export function commandFrames(
  type: 'subscribe' | 'unsubscribe',
  refs: string[],
  extra: Record<string, unknown> = {},
): Array<{ text: string; refs: string[] }> {
  const frames: Array<{ text: string; refs: string[] }> = [];
  let batch: string[] = [];
  const text = (markets: string[]) => JSON.stringify({ type, ...extra, markets });
  for (const ref of refs) {
    if (batch.length > 0 && new TextEncoder().encode(text([...batch, ref])).length > WS_SERVER_LIMITS.frameBytes) {
      frames.push({ text: text(batch), refs: batch });
      batch = [];
    }
    batch.push(ref);
  }
  if (batch.length > 0) frames.push({ text: text(batch), refs: batch });
  return frames;
}
