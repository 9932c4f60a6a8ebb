export * from './program-id.js';
export * from '../shared/discriminator.js';
export * from './pda.js';
export * from './accounts.js';
export * from './market-state.js';
export * from './errors.js';
export * from './filters.js';
export * from './instructions/index.js';
