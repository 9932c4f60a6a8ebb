/**
 * Family A's routes as one plugin. Its onRequest hook (instance-level, so it runs before the
 * route-level rate-limit hook that rate-limit.plugin.ts attaches) resolves `X-API-Key` and sets
 * `request.apiKeyId`, which makes rate limits count per key. Integer market ids (Family B, see
 * markets.routes.ts) are exempt from the key.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { familyOf } from '../../families.js';
import type { ApiKeyService } from '../../../services/family-a/api-keys.service.js';
import type { FamilyADeps } from '../../../services/family-a/family-a.deps.js';
import { adminRoutes } from './admin.routes.js';
import { createRoutes } from './create.routes.js';
import { marketRoutes } from './markets.routes.js';
import { paymentRoutes } from './payments.routes.js';
import { tradeRoutes } from './trade.routes.js';

export function familyARoutes(deps: FamilyADeps, apiKeys: ApiKeyService): FastifyPluginAsync[] {
  const publicRoutes = async (app: FastifyInstance): Promise<void> => {
    // Synchronous when there is no key to check (nearly every request): no promise per request.
    app.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers['x-api-key'];
      if ((header === undefined && !apiKeys.required) || familyOf(request.url) !== 'A') return done();
      apiKeys.authenticate(typeof header === 'string' ? header : undefined).then((id) => {
        if (id) (request as typeof request & { apiKeyId?: string }).apiKeyId = id;
        done();
      }, done);
    });
    await app.register(marketRoutes(deps));
    await app.register(tradeRoutes(deps));
    await app.register(createRoutes(deps));
    await app.register(paymentRoutes(deps));
  };
  // /admin/money (money-page.ts) is registered by the console feature, beside every family's solvency checks.
  return [publicRoutes, adminRoutes(deps, apiKeys)];
}
