/** The exchange program's client (Family C): see docs/programs.md, "Exchange program". */
export * from './program-id.js';
export * from './pda.js';
export * from './errors.js';
export * from './discriminators.js';
export * from './accounts.js';
export * from './instructions/index.js';
export * from './settlement/index.js';
