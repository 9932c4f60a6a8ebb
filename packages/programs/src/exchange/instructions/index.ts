export * from './data.js';
export * from './operator.js';
export * from './wallet.js';
