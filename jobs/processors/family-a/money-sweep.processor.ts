/** `family-a.money.sweep`: one pass of the Family A money sweep (idempotent; see the service). */
import type { FamilyADeps } from '../../../src/services/family-a/family-a.deps.js';
import { sweepFamilyAMoney } from '../../../src/services/family-a/money-sweep.service.js';
import type { Processor } from '../../processor.js';

export function moneySweepProcessor(deps: FamilyADeps): Processor<'family-a.money.sweep'> {
  return async () => {
    const result = await sweepFamilyAMoney(deps);
    return { refunds: result.refunds.length, expiredCreations: result.expiredCreations.length };
  };
}
