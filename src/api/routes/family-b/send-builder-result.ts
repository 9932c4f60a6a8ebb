import type { BuilderResult } from '../../../services/family-b/builder-result.js';

type Envelope<R extends BuilderResult> = R extends BuilderResult
  ? { success: true } & (R['flags'] extends object ? R['flags'] : unknown) & (R['data'] extends undefined ? unknown : { data: R['data'] })
  : never;

/** `{success:true, data}` plus the idempotent flags at the top level. */
export function builderResponse<R extends BuilderResult>(result: R): Envelope<R> {
  return { success: true, ...(result.flags ?? {}), ...(result.data !== undefined ? { data: result.data } : {}) } as Envelope<R>;
}
