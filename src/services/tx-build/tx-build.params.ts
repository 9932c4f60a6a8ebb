/**
 * Every transaction builder's parameter schema, by kind: the runtime half of the builder catalog
 * (tx-build.port.ts). The builders take `Static` of their schema (family-b.tx-builders.ts,
 * wallet.builders.ts), and `satisfies` fails the build if a kind has no schema.
 */
import { familyBTxParams } from '../family-b/family-b.tx-params.js';
import { familyCTxParams } from '../family-c/wallet.tx-params.js';
import type { ParamSchemas } from './tx-build.port.js';

export const txBuildParams = { ...familyBTxParams, ...familyCTxParams } satisfies ParamSchemas;
