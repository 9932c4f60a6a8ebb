/**
 * Whether 32 bytes are the compressed encoding of a point on Ed25519, as web3.js's
 * `PublicKey.isOnCurve` answers (noble's strict decoding): y below p, y² − 1 over d·y² + 1 a square,
 * and x = 0 only with a clear sign bit. Every program-derived address needs this check per bump
 * tried, and web3.js decodes the whole point (a 252-bit exponentiation) where a Jacobi symbol
 * answers the same question: u/v is a square exactly when u·v is (v is never 0: −1/d is not a
 * square). test/curve.test.ts compares both on random keys and the edge cases.
 *
 * Kept because bench/solana-primitives.bench.ts (2026-11-26, 2 cores shared, load ~15, Node 20;
 * median of 3 runs, a cache miss each call): this 12,300 ops/s, web3.js PublicKey.isOnCurve
 * 2,500 (this 4.9×), kit isOffCurveAddress 2,100 from bytes (5.9×; it takes base58). kit also
 * answers differently: it reduces a non-canonical y ≥ p and calls such bytes on the curve, where
 * web3.js and this refuse them, and the Ed25519 precompile checks untrusted keys with this.
 */
const P = 2n ** 255n - 19n;
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n;

/** The Jacobi symbol (a/n) for odd n > 0: the binary algorithm with quadratic reciprocity. */
function jacobi(a: bigint, n: bigint): number {
  let t = 1;
  a %= n;
  while (a !== 0n) {
    while ((a & 1n) === 0n) {
      a >>= 1n;
      const r = n & 7n;
      if (r === 3n || r === 5n) t = -t;
    }
    [a, n] = [n, a];
    if ((a & 3n) === 3n && (n & 3n) === 3n) t = -t;
    a %= n;
  }
  return n === 1n ? t : 0;
}

export function isOnCurve(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  let y = BigInt(bytes[31]! & 0x7f);
  for (let i = 30; i >= 0; i--) y = (y << 8n) | BigInt(bytes[i]!);
  if (y >= P) return false;
  const yy = (y * y) % P;
  const u = (yy + P - 1n) % P;
  if (u === 0n) return (bytes[31]! & 0x80) === 0; // y = ±1: x = 0, whose negative encoding is refused
  const v = (D * yy + 1n) % P;
  return jacobi((u * v) % P, P) === 1;
}
