/** The dead-man's switch sweep: fires the heartbeat deadlines that passed (heartbeat.service.ts), safe to run twice. */
import type { FamilyCContext } from '../../../src/services/family-c/context.js';
import type { MatcherPort } from '../../../src/services/family-c/matcher/matcher.port.js';
import { fireDueHeartbeats } from '../../../src/services/family-c/orders/heartbeat.service.js';
import type { Processor } from '../../processor.js';

export function heartbeatSweepProcessor(c: FamilyCContext, matcher: MatcherPort): Processor<'clob.heartbeats.sweep'> {
  return async () => fireDueHeartbeats(c, matcher);
}
