/**
 * Failed logins are slowed, never locked out: each failure of an address, and of a name, adds to
 * a delay the next attempt waits before it is answered (250 ms doubling per failure, at most 8 s
 * for a name and 4 s for an address), and the record fades 15 minutes after its last failure. A
 * stranger hammering `admin` slows their own attempts down; the real admin still logs in (after
 * the delay) and a success clears the name's record. Per API node (in memory).
 */
const BASE_MS = 250;
const MAX_NAME_MS = 8_000;
const MAX_ADDRESS_MS = 4_000;
const FORGET_MS = 15 * 60_000;
const MAX_TRACKED = 50_000;

interface Failures {
  count: number;
  last: number;
}

export class LoginThrottle {
  private readonly names = new Map<string, Failures>();
  private readonly addresses = new Map<string, Failures>();

  /** How long an attempt of this name from this address waits before it is checked. */
  delayMs(name: string, address: string, now = Date.now()): number {
    return Math.max(this.delayOf(this.names, name, MAX_NAME_MS, now), this.delayOf(this.addresses, address, MAX_ADDRESS_MS, now));
  }

  failed(name: string, address: string, now = Date.now()): void {
    for (const [map, key] of [
      [this.names, name],
      [this.addresses, address],
    ] as const) {
      if (map.size >= MAX_TRACKED) map.clear();
      const f = map.get(key);
      map.set(key, { count: (f && now - f.last < FORGET_MS ? f.count : 0) + 1, last: now });
    }
  }

  succeeded(name: string): void {
    this.names.delete(name);
  }

  private delayOf(map: Map<string, Failures>, key: string, max: number, now: number): number {
    const f = map.get(key);
    if (!f || now - f.last >= FORGET_MS) return 0;
    return Math.min(max, BASE_MS * 2 ** (f.count - 1));
  }
}
