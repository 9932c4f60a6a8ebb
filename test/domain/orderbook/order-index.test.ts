/**
 * The book's open-addressing order index against a Map as the model: random inserts, replaces
 * and deletes (long probe runs, deletions that shift runs back, growth) must leave exactly the
 * Map's contents, every id found where the Map finds it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashOf, OrderIndex } from '../../../src/domain/orderbook/order-index.js';

interface Item {
  id: string;
  v: number;
}

function check(index: OrderIndex<Item>, model: Map<string, Item>, probe: string[]): void {
  expect(index.size).toBe(model.size);
  const wrong = probe.filter((id) => index.get(id) !== model.get(id) || index.has(id) !== model.has(id));
  expect(wrong).toEqual([]);
  const values = [...index.values()];
  expect(values.length).toBe(model.size);
  expect(values.filter((v) => model.get(v.id) !== v)).toEqual([]);
}

describe('OrderIndex', () => {
  it('inserts, replaces, finds and deletes; iterates every value once', () => {
    const index = new OrderIndex<Item>();
    const a = { id: 'a', v: 1 };
    index.set(a);
    index.set({ id: 'b', v: 2 });
    const a2 = { id: 'a', v: 3 };
    index.set(a2);
    expect(index.size).toBe(2);
    expect(index.get('a')).toBe(a2);
    expect(index.delete('a')).toBe(true);
    expect(index.delete('a')).toBe(false);
    expect(index.get('a')).toBeUndefined();
    expect([...index.values()]).toEqual([{ id: 'b', v: 2 }]);
    // Every id's hash fits the Int32Array, the empty one's included.
    index.set({ id: '', v: 4 });
    expect(index.has('')).toBe(true);
    index.set({ id: '', v: 5 });
    expect(index.size).toBe(2);
  });

  it('matches a Map over random operations on a small id space (long runs, wrap-around, growth)', () => {
    // Few distinct ids in a table that starts at 16 slots: probe runs collide, wrap and shift.
    const op = fc.record({ kind: fc.constantFrom('set', 'set', 'delete'), id: fc.integer({ min: 0, max: 60 }), v: fc.integer() });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const index = new OrderIndex<Item>();
        const model = new Map<string, Item>();
        const ids = Array.from({ length: 61 }, (_, i) => `order-${i}`);
        for (const o of ops) {
          const id = ids[o.id]!;
          if (o.kind === 'set') {
            const item = { id, v: o.v };
            index.set(item);
            model.set(id, item);
          } else {
            expect(index.delete(id)).toBe(model.delete(id));
          }
        }
        check(index, model, ids);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a probe run that wraps past the table's end whole, whatever order its ids are deleted in", () => {
    // Six ids whose home is one of the last two of 16 slots: they fill 14, 15, 0, 1, 2, 3.
    const ids: string[] = [];
    for (let n = 0; ids.length < 6; n++) if ((hashOf(`w${n}`) & 15) >= 14) ids.push(`w${n}`);
    const orders = (xs: string[]): string[][] =>
      xs.length <= 1 ? [xs] : xs.flatMap((x, i) => orders([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
    for (const deletion of orders(ids)) {
      const index = new OrderIndex<Item>(6); // 16 slots: no growth with six ids
      const model = new Map<string, Item>();
      ids.forEach((id, v) => {
        index.set({ id, v });
        model.set(id, index.get(id)!);
      });
      for (const id of deletion) {
        index.delete(id);
        model.delete(id);
        check(index, model, ids);
      }
    }
  });

  it('keeps 200,000 uuid-like ids through deletion of every other one', () => {
    const index = new OrderIndex<Item>();
    const model = new Map<string, Item>();
    const ids = Array.from(
      { length: 200_000 },
      (_, i) => `${i.toString(16).padStart(8, '0')}-0000-4000-8000-${(i * 7919).toString(16).padStart(12, '0')}`,
    );
    ids.forEach((id, v) => {
      index.set({ id, v });
      model.set(id, index.get(id)!);
    });
    ids.forEach((id, i) => {
      if (i % 2 === 0) {
        index.delete(id);
        model.delete(id);
      }
    });
    check(index, model, ids);
  });
});
