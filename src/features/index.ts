/**
 * Every feature the daemon runs, in start order. Adding a capability = writing its feature
 * factory and listing it here (and its jobs in jobs/catalog.ts).
 */
import { chainFeature } from './chain.feature.js';
import { consoleFeature } from './console.feature.js';
import { familyAFeature } from './family-a.feature.js';
import { familyBFeature } from './family-b.feature.js';
import { familyCFeature } from './family-c.feature.js';
import type { FeatureFactory } from './feature.js';

export const FEATURE_FACTORIES: FeatureFactory[] = [chainFeature, familyBFeature, familyAFeature, familyCFeature, consoleFeature];
