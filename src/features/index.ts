/**
 * Every feature the daemon runs, in start order. Adding a capability = writing its feature
 * factory and listing it here (and its jobs in jobs/catalog.ts).
 */
import { familyAFeature } from './family-a.feature.js';
import type { FeatureFactory } from './feature.js';

export const FEATURE_FACTORIES: FeatureFactory[] = [familyAFeature];
