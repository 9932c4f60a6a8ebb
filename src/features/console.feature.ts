/** The operator console's cross-family pages (overview, markets); each family adds its own pages (e.g. an orderbook market's). */
import { consoleRoutes } from '../api/routes/console/console.routes.js';
import type { FeatureFactory } from './feature.js';

export const consoleFeature: FeatureFactory = (ctx) => ({
  name: 'console',
  routes: [consoleRoutes({ db: ctx.db, queues: [...ctx.queues.queues.values()] }, ctx.adminToken)],
});
