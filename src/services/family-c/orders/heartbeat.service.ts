/**
 * The market makers' dead-man's switch (`POST /v2/clob/heartbeat`): a signed
 * `PMX Heartbeat:<timeoutSec>:<unix seconds>` arms a per-owner deadline of now + timeoutSec
 * (5–300 s; 0 disarms). The timestamp must be fresh (60 s) and newer than the owner's last
 * accepted heartbeat's, so a replayed heartbeat cannot keep a dead bot's orders alive. When a
 * deadline passes with no newer heartbeat, the `clob.heartbeats.sweep` job (every second, on any
 * node with workers) cancels every resting order of the owner with reason `heartbeat_expired`
 * through the markets' matchers (the user channel publishes those cancels as any other). The
 * deadlines live in the database (migration 0023), so they survive a restart and a matcher
 * takeover: one that passed while the daemon was down fires on the first sweep after start.
 */
import type { Logger } from 'pino';
import { acceptHeartbeat, clearFiredDeadline, dueHeartbeats } from '../../../../db/repositories/clob-heartbeats.repository.js';
import { marketsWithRestingOrders } from '../../../../db/repositories/clob-orders.repository.js';
import { DomainError } from '../../../domain/errors.js';
import { HEARTBEAT_WINDOW_SEC, heartbeatText, isFresh, verifySignedMessage } from '../../../domain/signed-message.js';
import { parsePubkey, type FamilyCContext } from '../context.js';
import type { MatcherPort } from '../matcher/matcher.port.js';

export const HEARTBEAT_MIN_SEC = 5;
export const HEARTBEAT_MAX_SEC = 300;
/** How often due deadlines are swept: an expired switch fires within about a second. */
export const HEARTBEAT_SWEEP_MS = 1_000;
/** Owners handled per sweep run, the most overdue first (the rest wait for the next run). */
const SWEEP_BATCH = 100;

export interface HeartbeatBody {
  pubkey: string;
  timeoutSec: number;
  timestamp: number;
  signature: string;
}

/** Arms (or with 0 disarms) the owner's deadline; answers it in unix seconds, null when disarmed. */
export async function heartbeat(ctx: Pick<FamilyCContext, 'db'>, body: HeartbeatBody, nowMs = Date.now()) {
  const owner = parsePubkey(body.pubkey).toBase58();
  if (body.timeoutSec !== 0 && (body.timeoutSec < HEARTBEAT_MIN_SEC || body.timeoutSec > HEARTBEAT_MAX_SEC))
    throw new DomainError(
      'invalid',
      'INVALID_TIMEOUT',
      `timeoutSec must be 0 (disarm) or ${HEARTBEAT_MIN_SEC}–${HEARTBEAT_MAX_SEC} (got ${body.timeoutSec})`,
    );
  const text = heartbeatText(body.timeoutSec, body.timestamp);
  if (!verifySignedMessage(text, owner, body.signature).ok)
    throw new DomainError('forbidden', 'INVALID_SIGNATURE', `A heartbeat needs the owner's signature of "${text}"`);
  if (!isFresh(body.timestamp, nowMs, HEARTBEAT_WINDOW_SEC))
    throw new DomainError(
      'forbidden',
      'SIGNATURE_EXPIRED',
      `The heartbeat must be signed within ${HEARTBEAT_WINDOW_SEC} s of now (timestamp ${body.timestamp})`,
    );
  const deadlineMs = body.timeoutSec === 0 ? null : nowMs + body.timeoutSec * 1000;
  const hb = { owner, signedAt: body.timestamp, timeoutSec: body.timeoutSec, deadlineMs };
  if (!(await acceptHeartbeat(ctx.db, hb, new Date(nowMs).toISOString())))
    throw new DomainError(
      'conflict',
      'STALE_HEARTBEAT',
      `timestamp ${body.timestamp} is not newer than this owner's last accepted heartbeat; sign the current time`,
    );
  return { deadline: deadlineMs === null ? null : Math.ceil(deadlineMs / 1000) };
}

/**
 * Fires the deadlines that passed: cancels each owner's resting orders in every market, then
 * clears the deadline (only if no newer heartbeat replaced it). An owner whose cancels could not
 * run keeps its deadline and is tried again on the next run.
 */
export async function fireDueHeartbeats(
  ctx: Pick<FamilyCContext, 'db'> & { log: Logger },
  matcher: MatcherPort,
  nowMs = Date.now(),
): Promise<{ owners: number; cancelled: number }> {
  let cancelled = 0;
  const due = await dueHeartbeats(ctx.db, nowMs, SWEEP_BATCH);
  for (const { owner, deadlineMs } of due) {
    try {
      for (const marketId of await marketsWithRestingOrders(ctx.db, owner))
        cancelled += (await matcher.cancelOwner(marketId, owner, 'heartbeat_expired')).cancelled.length;
      await clearFiredDeadline(ctx.db, owner, deadlineMs, new Date(nowMs).toISOString());
    } catch (err) {
      ctx.log.warn({ err, owner }, 'heartbeat deadline not fired yet; retrying on the next sweep');
    }
  }
  return { owners: due.length, cancelled };
}
