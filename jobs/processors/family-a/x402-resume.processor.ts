/** `family-a.x402.resume`: one pass over undecided standard payments, and the fee payer's balance (see the service). */
import type { FamilyADeps } from '../../../src/services/family-a/family-a.deps.js';
import { checkFeePayer, resumeStandardPayments } from '../../../src/services/family-a/x402-standard/x402-resume.service.js';
import type { DaemonMetrics } from '../../../src/infra/metrics.js';
import type { Processor } from '../../processor.js';

export function x402ResumeProcessor(
  deps: FamilyADeps,
  metrics: Pick<DaemonMetrics, 'feePayerLamports'>,
): Processor<'family-a.x402.resume'> {
  return async () => {
    const result = await resumeStandardPayments(deps);
    const lamports = await checkFeePayer(deps);
    metrics.feePayerLamports.set(Number(lamports));
    return { ...result, feePayerLamports: lamports.toString() };
  };
}
