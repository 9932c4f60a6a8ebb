/**
 * The `book` frame of the market channel, from what one MGET reads: the stored snapshot (JSON
 * written by the bus, `{"seq":S,"marketId":…,"yes":…,"no":…,"bestBid":…,"bestAsk":…,
 * "lastPrice":…,"timestamp":…}`) and the market's sequence counter N.
 *
 * Only the matcher changes books and it always publishes a snapshot with its events, so events
 * published without one (a `market_resolved`, the keeper's settled `trade`s) leave the book as
 * it was: the snapshot is the book at max(S, N), and the frame carries that seq so that the next
 * event the client sees is seq + 1. A market the matcher never touched has no snapshot yet: its
 * book is empty at N (or 0).
 */
import { EMPTY_TOP } from '../market.presenter.js';
import type { SequencedFrame } from './market-feeds.js';
import { encodeFrame } from './ws-connection.js';

const SNAPSHOT_HEAD = /^\{"seq":(\d+),/;

export function bookFrame(marketId: string, snapshot: string | null, counter: string | null, status: string | null, now: number): SequencedFrame {
  const n = counter !== null && /^\d+$/.test(counter) ? Number(counter) : 0;
  const head = snapshot === null ? null : SNAPSHOT_HEAD.exec(snapshot);
  if (snapshot === null) {
    const empty = { event: 'book', seq: n, status, marketId, yes: { bids: [], asks: [] }, no: { bids: [], asks: [] }, ...EMPTY_TOP, timestamp: now };
    return { seq: n, frame: encodeFrame(JSON.stringify(empty)) };
  }
  if (head) {
    // Splice instead of parse + stringify: a deep book is hundreds of KB, and this runs per read.
    const seq = Math.max(Number(head[1]), n);
    return { seq, frame: encodeFrame(`{"event":"book","seq":${seq},"status":${JSON.stringify(status)},${snapshot.slice(head[0].length)}`) };
  }
  const parsed = JSON.parse(snapshot) as Record<string, unknown>;
  const seq = Math.max(Number.isSafeInteger(parsed.seq) ? (parsed.seq as number) : 0, n);
  return { seq, frame: encodeFrame(JSON.stringify({ ...parsed, event: 'book', seq, status, marketId })) };
}
