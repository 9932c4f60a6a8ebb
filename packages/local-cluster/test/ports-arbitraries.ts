/**
 * The fuzz suite's inputs for the embedded cluster's ports (ports.fuzz.test.ts): scalars a
 * client could send, config objects with the keys the methods read, hostile account filters.
 */
import fc from 'fast-check';

export const SYSTEM = '11111111111111111111111111111111';
export const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SIG = '5'.repeat(88);

export const scalar = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(
    SYSTEM,
    TOKEN,
    SIG,
    'base64',
    'base58',
    'jsonParsed',
    'json',
    'base64+zstd',
    '0',
    '',
    -1,
    0,
    1.5,
    1e20,
    2 ** 53,
    2 ** 64,
    null,
    true,
    false,
  ),
);
const configKeys = fc.constantFrom(
  'encoding',
  'filters',
  'dataSlice',
  'limit',
  'before',
  'until',
  'commitment',
  'mint',
  'programId',
  'mentions',
  'withContext',
  'maxSupportedTransactionVersion',
  'skipPreflight',
  'sigVerify',
  'replaceRecentBlockhash',
  'offset',
  'length',
  'bytes',
  'memcmp',
  'dataSize',
);
export const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(configKeys, tie('v'), { maxKeys: 4 }),
  ),
})).v;
export const hostileFilter = fc.oneof(
  fc.record({ memcmp: fc.record({ offset: scalar, bytes: scalar }, { requiredKeys: [] }) }),
  fc.record({
    memcmp: fc.record({
      offset: fc.integer({ min: -5, max: 300 }),
      bytes: fc.string({ maxLength: 200 }),
      encoding: fc.constantFrom('base58', 'base64', 'hex'),
    }),
  }),
  fc.record({ dataSize: scalar }),
  value,
);
export const params = fc.oneof(
  fc.array(value, { maxLength: 4 }),
  fc.tuple(
    fc.constantFrom(SYSTEM, TOKEN),
    fc.record({ encoding: scalar, filters: fc.array(hostileFilter, { maxLength: 6 }), dataSlice: value }, { requiredKeys: [] }),
  ),
  value,
);
