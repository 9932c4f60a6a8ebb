/**
 * Keeps a connection under the daemon's frame rate (20 frames in any sliding second closes it
 * with 4029): frames go out at once while fewer than `perSecond` left in the last second, and
 * wait for the window otherwise. The queue holds only what the client itself generates (one
 * PING per interval, subscription commands that the caller coalesces), so it stays small.
 */
export class SendPacer {
  private readonly sentAt: number[] = [];
  private readonly queue: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly perSecond: number,
    private readonly write: (text: string) => void,
  ) {}

  push(text: string): void {
    this.queue.push(text);
    this.flush();
  }

  /** Forgets the window and the queue (the connection went away) and clears the timer. */
  reset(): void {
    this.queue.length = 0;
    this.sentAt.length = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Frames waiting for the window. */
  get waiting(): number {
    return this.queue.length;
  }

  private flush(): void {
    if (this.timer !== undefined) return;
    const now = Date.now();
    while (this.sentAt.length > 0 && now - this.sentAt[0]! >= 1_000) this.sentAt.shift();
    while (this.queue.length > 0 && this.sentAt.length < this.perSecond) {
      this.sentAt.push(now);
      this.write(this.queue.shift()!);
    }
    if (this.queue.length === 0) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.flush();
      },
      1_000 - (now - this.sentAt[0]!) + 1,
    );
  }
}
