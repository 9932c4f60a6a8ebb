/** `outbound.send`: drive one persisted outbound transaction (safe to run twice: the row is the state). */
import type { OutboundSender } from '../../../src/services/outbound/outbound-sender.js';
import type { Processor } from '../../processor.js';

export function outboundSendProcessor(sender: OutboundSender): Processor<'outbound.send'> {
  return async (payload, _job, log) => {
    const result = await sender.process(payload.outboundId);
    log.info({ outbound: result.id, status: result.status, signature: result.signature }, 'outbound processed');
    return result;
  };
}
