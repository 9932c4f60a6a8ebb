import type { BuilderResult } from '../../../services/family-b/builder-result.js';

/** `{success:true, data}` plus the idempotent flags at the top level. */
export function builderResponse(result: BuilderResult): Record<string, unknown> {
  return { success: true, ...(result.flags ?? {}), ...(result.data !== undefined ? { data: result.data } : {}) };
}
