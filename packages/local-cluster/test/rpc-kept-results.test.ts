/**
 * Kept account-read results (rpc-kept-results.ts): every answer of the kept methods is the same
 * bytes as the dispatcher without the cache gives, for good and bad params, every id kind and a
 * small response budget, first call and kept call alike; and a write or a new slot between two
 * reads shows at the second one.
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMethods } from '../src/json-rpc.account-methods.js';
import { DEFAULT_DISPATCH_LIMITS, JsonRpcDispatcher } from '../src/json-rpc.dispatch.js';
import { transactionMethods } from '../src/json-rpc.transaction-methods.js';
import { EmbeddedLedger } from '../src/ledger.js';
import { KEPT_METHODS, KeptResults } from '../src/rpc-kept-results.js';

let ledger: EmbeddedLedger;
const owner = Keypair.generate().publicKey;
let ata: string;
let mint: string;

beforeAll(async () => {
  ledger = await EmbeddedLedger.open({ slotMs: 60_000 });
  await ledger.airdrop(owner, 2_000_000_000n);
  await ledger.mintUsdc(owner, 123_456_789n);
  mint = ledger.bootstrapInfo.usdcMint;
  ata = getAssociatedTokenAddressSync(new PublicKey(mint), owner, true).toBase58();
});
afterAll(async () => {
  await ledger?.close();
});

function dispatchers(maxResponseBytes = DEFAULT_DISPATCH_LIMITS.maxResponseBytes) {
  const methods = { ...accountMethods(ledger), ...transactionMethods(ledger) };
  const limits = { ...DEFAULT_DISPATCH_LIMITS, maxResponseBytes };
  return {
    plain: new JsonRpcDispatcher(methods, limits),
    kept: new JsonRpcDispatcher(methods, limits, undefined, new KeptResults(ledger)),
  };
}

const address = () =>
  fc.constantFrom(
    () => owner.toBase58(),
    () => ata,
    () => mint,
    () => Keypair.generate().publicKey.toBase58(),
    () => '11111111111111111111111111111111',
    () => 'not-a-key',
    () => 7,
  );
const config = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant('base64'),
  fc.record(
    {
      encoding: fc.constantFrom('base64', 'base58', 'jsonParsed', 'json', 'base64+zstd', 'nope', 3),
      dataSlice: fc.oneof(
        fc.record({ offset: fc.constantFrom(0, -0, 1, 64, 200, -1, 1.5), length: fc.constantFrom(0, -0, 8, 32, 10_000_000) }),
        fc.constant('x'),
      ),
      commitment: fc.constantFrom('confirmed', 'finalized'),
      withContext: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
);
const call = fc.record({
  method: fc.constantFrom(...KEPT_METHODS, 'getSlot'),
  first: fc.oneof(address(), fc.array(address(), { maxLength: 4 })),
  cfg: config,
  id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.constant(undefined), fc.constant(-0), fc.double()),
  paramsShape: fc.constantFrom('array', 'none', 'null', 'object'),
  jsonrpc: fc.constantFrom('2.0', undefined, '1.0'),
});

function body(c: { method: string; first: unknown; cfg: unknown; id: unknown; paramsShape: string; jsonrpc?: string }): unknown {
  const pick = (v: unknown): unknown => (typeof v === 'function' ? (v as () => unknown)() : Array.isArray(v) ? v.map(pick) : v);
  const params =
    c.paramsShape === 'array' ? [pick(c.first), c.cfg] : c.paramsShape === 'none' ? undefined : c.paramsShape === 'null' ? null : {};
  // Through JSON, as the server hands the dispatcher a parsed body.
  return JSON.parse(JSON.stringify({ jsonrpc: c.jsonrpc, id: c.id, method: c.method, params }) ?? 'null') as unknown;
}

describe('kept account-read results', () => {
  it('answers every call with the bytes the uncached dispatcher gives, first and kept', async () => {
    for (const budget of [DEFAULT_DISPATCH_LIMITS.maxResponseBytes, 300]) {
      const { plain, kept } = dispatchers(budget);
      await fc.assert(
        fc.asyncProperty(call, async (c) => {
          const b = body(c);
          const expected = await plain.handle(b);
          expect(await kept.handle(b)).toBe(expected);
          expect(await kept.handle(b)).toBe(expected);
        }),
        { numRuns: 400 },
      );
    }
  });

  it('shows a write and a new slot at the next read', async () => {
    const { plain, kept } = dispatchers();
    const ask = (method: string, key: string, id = 1) => ({ jsonrpc: '2.0', id, method, params: [key, { encoding: 'base64' }] });
    const balance = ask('getBalance', owner.toBase58());
    const tokens = ask('getTokenAccountBalance', ata);
    const info = ask('getAccountInfo', ata);
    const before = [kept.handle(balance), kept.handle(tokens), kept.handle(info)];
    expect([kept.handle(balance), kept.handle(tokens), kept.handle(info)]).toEqual(before);

    await ledger.airdrop(owner, 5n);
    await ledger.mintUsdc(owner, 1n);
    const afterWrite = [kept.handle(balance), kept.handle(tokens), kept.handle(info)];
    expect(afterWrite).toEqual([plain.handle(balance), plain.handle(tokens), plain.handle(info)]);
    for (let i = 0; i < 3; i++) expect(afterWrite[i]).not.toBe(before[i]); // 5 more lamports, one more unit

    const slot = ledger.slot;
    ledger.advanceSlots(1);
    const afterSlot = kept.handle(info) as string;
    expect(afterSlot).toBe(plain.handle(info));
    expect(afterSlot).toContain(`"slot":${slot + 1}`);
    expect(afterSlot).not.toBe(afterWrite[2]);
  });

  it('keeps nothing past a write made while a result was being made', () => {
    let version = 1;
    const source = {
      slot: 5,
      get accountWriteVersion() {
        return version;
      },
    };
    const kept = new KeptResults(source);
    expect(kept.get('k')).toBeUndefined();
    version = 2; // a write between the miss and the keep
    kept.set('k', '"stale"');
    expect(kept.get('k')).toBeUndefined();
    kept.set('k', '"fresh"');
    expect(kept.get('k')).toBe('"fresh"');
  });
});
