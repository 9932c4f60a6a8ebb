export * from './common.js';
export * from './initialize.js';
export * from './create-market.js';
export * from './init-mints.js';
export * from './trade.js';
export * from './redeem.js';
export * from './creator-actions.js';
export * from './claim-protocol-fees.js';
