/**
 * @pmx/client: a typed client for the PMX prediction-market API (see README.md).
 */
export * from './ws/index.js';
