/**
 * The typed catalog of transaction builders and the port write routes use to reach them. A
 * builder's parameter and result types flow from its function (e.g. `buildBuy`) through the
 * catalog to the route that enqueues it, so a route cannot send a field the builder does not
 * take or forget one it needs. `jobs/tx-build.client.ts` implements the port over the tx-build
 * queue; the worker runs the builder registered under the same kind. Each kind's parameters also
 * have a schema (tx-build.params.ts), checked by the client before it enqueues and by the worker
 * before it builds, as the job catalog checks its payloads.
 */
import type { TSchema } from 'typebox';
import type { FamilyBTxBuilders } from '../family-b/family-b.tx-builders.js';
import type { FamilyCTxBuilders } from '../family-c/wallet.builders.js';

export type TxBuilderCatalog = FamilyBTxBuilders & FamilyCTxBuilders;

/** Any catalog: builder kind → async function of one parameter object. */
export type BuilderCatalog = Record<string, (params: never) => Promise<unknown>>;
export type TxBuildKind<C extends BuilderCatalog = TxBuilderCatalog> = keyof C & string;
export type TxBuildParams<K extends TxBuildKind<C>, C extends BuilderCatalog = TxBuilderCatalog> = Parameters<C[K]>[0];
/** A parameter schema for every kind of a catalog. */
export type ParamSchemas<C extends BuilderCatalog = TxBuilderCatalog> = { readonly [K in TxBuildKind<C>]: TSchema };
export type TxBuildResult<K extends TxBuildKind<C>, C extends BuilderCatalog = TxBuilderCatalog> = Awaited<ReturnType<C[K]>>;

export interface TxBuildPort<C extends BuilderCatalog = TxBuilderCatalog> {
  /** Builds on a worker and awaits the result; throws the builder's DomainError, or `unavailable` (503). */
  request<K extends TxBuildKind<C>>(kind: K, params: TxBuildParams<K, C>): Promise<TxBuildResult<K, C>>;
}
