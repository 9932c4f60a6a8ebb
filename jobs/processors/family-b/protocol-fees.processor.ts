/** `market.protocol-fees.sweep`: records due sweeps (idempotently) and dispatches them. */
import type { FamilyBContext } from '../../../src/services/family-b/context.js';
import { recordProtocolFeeSweeps } from '../../../src/services/family-b/protocol-fees.service.js';
import type { Processor } from '../../processor.js';

export function protocolFeeSweepProcessor(
  ctx: FamilyBContext,
  dispatch: (outboundId: string) => Promise<void>,
): Processor<'market.protocol-fees.sweep'> {
  return async (_payload, _job, log) => {
    const recorded = await recordProtocolFeeSweeps(ctx);
    for (const id of recorded) await dispatch(id);
    if (recorded.length > 0) log.info({ sweeps: recorded.length }, 'protocol fee sweeps dispatched');
    return { sweeps: recorded.length };
  };
}
