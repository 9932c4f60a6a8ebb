/**
 * What a Family B builder returns: `data` for the `{success:true, data}` envelope, and/or
 * top-level `flags` for the idempotent variants (`{success:true, noFees:true, note}`).
 */
export interface BuilderResult {
  data?: unknown;
  flags?: Record<string, unknown>;
}
