export * from './program-id.js';
export * from './discriminator.js';
export * from './codec.js';
export * from './pda.js';
export * from './accounts.js';
export * from './market-state.js';
export * from './errors.js';
export * from './instructions/index.js';
export { createMarketProgramHandler } from './reference/market.handler.js';
