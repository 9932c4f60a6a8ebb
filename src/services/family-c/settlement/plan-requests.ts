/**
 * Requests to plan a market's settlement made in this process, kept until its planning job takes
 * them. The job is deduplicated per market in the queue, and BullMQ drops a request while the job
 * is active: fills matched after the job's last read would wait for the sweep (2 s). So the job
 * takes the requests when it starts and plans again before it ends if new ones came meanwhile.
 * Requests from other processes still rely on the sweep.
 */
export class PlanRequests {
  private readonly pending = new Set<string>();

  note(marketId: string): void {
    this.pending.add(marketId);
  }

  /** Whether a request for the market came since the last take (and clears it). */
  take(marketId: string): boolean {
    return this.pending.delete(marketId);
  }
}
