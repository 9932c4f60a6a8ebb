/**
 * The WebSocket hub tests' world (ws-hub.test.ts, ws-hub-user.test.ts): a hub on a fake clock with
 * fake peers, markets known by slug or id, and book reads answered when the test says so.
 */
import type { WsPeer } from '../../src/services/family-c/ws/ws-connection.js';
import { WsHub } from '../../src/services/family-c/ws/ws-hub.js';

export const M1 = '11111111-1111-4111-8111-111111111111';
export const M2 = '22222222-2222-4222-8222-222222222222';
export const SLUGS: Record<string, string> = { 'rain-lisbon': M1, [M1]: M1, [M2]: M2 };
for (let i = 0; i < 60; i++) SLUGS[`m-${i}`] = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

export class FakePeer implements WsPeer {
  sent: string[] = [];
  closedWith: { code: number; reason: string } | null = null;
  bufferedAmount = 0;
  send(frame: string | Buffer) {
    this.sent.push(frame.toString());
  }
  close(code: number, reason: string) {
    this.closedWith = { code, reason };
  }
  get json() {
    return this.sent.filter((f) => f !== 'PONG').map((f) => JSON.parse(f));
  }
}

export function setup(options: Partial<{ idleTimeoutMs: number; maxBufferedBytes: number }> = {}) {
  let now = 1_000_000;
  const reads: Array<{ marketId: string; ticket: number }> = [];
  const warnings: string[] = [];
  const hub = new WsHub(
    {
      resolveMarkets: async (refs) => refs.map((r) => SLUGS[r] ?? null),
      readBook: (marketId, ticket) => reads.push({ marketId, ticket }),
      now: () => now,
      defer: (run) => run(),
      warn: (_d, message) => warnings.push(message),
    },
    { idleTimeoutMs: options.idleTimeoutMs ?? 30_000, maxBufferedBytes: options.maxBufferedBytes ?? 1_000 },
  );
  const answer = (seq: number) => {
    for (const r of reads.splice(0))
      hub.bookArrived(r.marketId, r.ticket, { seq, frame: JSON.stringify({ event: 'book', marketId: r.marketId, seq }) });
  };
  const publish = (marketId: string, ...seqs: number[]) =>
    hub.marketMessage(
      JSON.stringify({
        marketId,
        events: seqs.map((seq) => ({ seq, event: 'price_change', marketId, outcome: 'yes', side: 'buy', price: 5000, size: '1' })),
      }),
    );
  return { hub, reads, warnings, answer, publish, advance: (ms: number) => (now += ms) };
}

export const settle = () => new Promise((r) => setImmediate(r));
