/**
 * The bounds of the on-chain integer types, once: programs store amounts as u64 and times as
 * i64, and every layer that checks a value before it reaches an account checks against these.
 */
export const U64_MAX = (1n << 64n) - 1n;
export const I64_MIN = -(1n << 63n);
export const I64_MAX = (1n << 63n) - 1n;
