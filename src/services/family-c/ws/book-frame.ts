/**
 * The `book` frames of the market channel, from one read of the stored book (event-bus.ts
 * `readBook`: the head `{"seq":S,…}`, the market's sequence counter N and the levels hash, read
 * at once).
 *
 * Only the matcher changes books and it always updates the stored book with its events, so
 * events published without a book change (a `market_resolved`, the keeper's settled `trade`s)
 * leave the book as it was: the stored book is the book at max(S, N), and the frames carry that
 * seq so that the next event the client sees is seq + 1. A market the matcher never touched has
 * no head yet: its book is empty at N (or 0).
 *
 * A deep book is split so that no frame exceeds `maxFrameBytes` (default 32 KiB, half the
 * smallest allowed `WS_MAX_BUFFERED_BYTES`): the `book` frame carries the head and the best
 * levels, and `parts` − 1 `book_levels` frames with the same seq carry the rest, in order
 * (docs/websockets.md). A book that fits one frame is sent exactly as before, without `parts`.
 */
import { EMPTY_TOP } from '../market.presenter.js';
import { storedSides, type StoredBook } from '../events/book-snapshot.js';
import type { SequencedFrame } from './market-feeds.js';
import { encodeFrame } from './ws-connection.js';

export const BOOK_FRAME_BYTES = 32_768;
/** Room for a frame's fixed fields (event, seq, status, market id, top, timestamp, part numbers). */
const FRAME_OVERHEAD = 1_024;
const SIDE_KEYS = [
  ['yes', 'bids'],
  ['yes', 'asks'],
  ['no', 'bids'],
  ['no', 'asks'],
] as const;

type Chunk = string[][]; // the four sides' level JSON, in SIDE_KEYS order

/** Splits the levels into chunks of at most `budget` bytes of level JSON (at least one chunk). */
function chunks(sides: ReturnType<typeof storedSides>, budget: number): Chunk[] {
  const out: Chunk[] = [[[], [], [], []]];
  let used = 0;
  SIDE_KEYS.forEach(([outcome, side], k) => {
    for (const l of sides[outcome][side]) {
      const json = `{"price":${l.price},"size":${JSON.stringify(l.size)}}`;
      if (used + json.length + 1 > budget && used > 0) {
        out.push([[], [], [], []]);
        used = 0;
      }
      out[out.length - 1]![k]!.push(json);
      used += json.length + 1;
    }
  });
  return out;
}

const sidesJson = (c: Chunk) =>
  `"yes":{"bids":[${c[0]!.join(',')}],"asks":[${c[1]!.join(',')}]},"no":{"bids":[${c[2]!.join(',')}],"asks":[${c[3]!.join(',')}]}`;

export function bookFrame(
  marketId: string,
  stored: StoredBook,
  status: string | null,
  now: number,
  maxFrameBytes = BOOK_FRAME_BYTES,
): SequencedFrame {
  const n = stored.counter !== null && /^\d+$/.test(stored.counter) ? Number(stored.counter) : 0;
  if (stored.head === null) {
    const empty = {
      event: 'book',
      seq: n,
      status,
      marketId,
      yes: { bids: [], asks: [] },
      no: { bids: [], asks: [] },
      ...EMPTY_TOP,
      timestamp: now,
    };
    return { seq: n, frame: encodeFrame(JSON.stringify(empty)) };
  }
  const head = JSON.parse(stored.head) as Record<string, unknown>;
  const seq = Math.max(Number.isSafeInteger(head.seq) ? (head.seq as number) : 0, n);
  const parts = chunks(storedSides(stored.levels), maxFrameBytes - FRAME_OVERHEAD);
  const id = JSON.stringify(marketId);
  const count = parts.length > 1 ? `,"parts":${parts.length}` : '';
  const top = `"bestBid":${JSON.stringify(head.bestBid)},"bestAsk":${JSON.stringify(head.bestAsk)},"lastPrice":${JSON.stringify(head.lastPrice)},"timestamp":${JSON.stringify(head.timestamp ?? now)}`;
  const first = `{"event":"book","seq":${seq},"status":${JSON.stringify(status)},"marketId":${id}${count},${sidesJson(parts[0]!)},${top}}`;
  const more = parts
    .slice(1)
    .map((c, i) =>
      encodeFrame(`{"event":"book_levels","seq":${seq},"marketId":${id},"part":${i + 2},"parts":${parts.length},${sidesJson(c)}}`),
    );
  return { seq, frame: encodeFrame(first), ...(more.length > 0 ? { more } : {}) };
}
