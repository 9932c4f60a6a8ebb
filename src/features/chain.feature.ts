/** The chain's own endpoints: GET /v2/config and, on the embedded cluster, the dev faucet. */
import { chainRoutes } from '../api/routes/chain.routes.js';
import type { FeatureFactory } from './feature.js';

export const chainFeature: FeatureFactory = (ctx) => ({
  name: 'chain',
  routes: [async (app) => chainRoutes(app, { chain: ctx.chain })],
});
