/**
 * The platform wallet's USDC account must exist before Family A can pay out: a standing outbound
 * intent, recorded once for the deployment and dispatched at every start until it is confirmed.
 */
import { recordOrFindOutboundIntent } from '../outbound/outbound-intents.js';
import { PURPOSES } from './family-a.builders.js';
import type { FamilyADeps } from './family-a.deps.js';

export async function ensurePlatformAccounts(deps: FamilyADeps): Promise<void> {
  const intent = await recordOrFindOutboundIntent(deps.db, {
    idempotencyKey: 'a-platform-accounts',
    purpose: PURPOSES.platformAccounts,
    params: {},
  });
  if (intent.status !== 'confirmed') await deps.dispatchOutbound(intent.id);
}
