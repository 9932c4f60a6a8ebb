/**
 * "At most `limit` frames in any `windowMs`": a sliding window over the times of the last `limit`
 * frames (a ring), so a burst straddling a second boundary counts as one burst, unlike a counter
 * reset every second. O(1) per frame, `limit` numbers per connection.
 */
export class RateWindow {
  private readonly times: number[];
  private next = 0;
  private count = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {
    this.times = new Array<number>(limit).fill(0);
  }

  /** Records a frame at `now`; false when it is one too many for the window. */
  hit(now: number): boolean {
    if (this.count === this.limit && now - this.times[this.next]! < this.windowMs) return false;
    this.times[this.next] = now;
    this.next = (this.next + 1) % this.limit;
    if (this.count < this.limit) this.count++;
    return true;
  }
}
