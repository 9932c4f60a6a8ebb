import { describe, expect, it } from 'vitest';
import { userEventsJson } from '../../src/services/family-c/events/event-bus.js';
import type { UserEvent } from '../../src/services/family-c/events/clob-events.js';

describe('userEventsJson', () => {
  it('is JSON.stringify of the events, key for key, with shared views serialised once', () => {
    const order = { id: 'o1', status: 'filled', nested: { a: [1, 2] }, quote: 'a"b' };
    const fill = { id: 'f1', quantity: '5', createdAt: 'now' };
    const events: UserEvent[] = [
      { event: 'order:placed', owner: 'A', marketId: 'm', order, timestamp: 1 },
      { event: 'order:filled', owner: 'A', marketId: 'm', order, timestamp: 1 },
      { event: 'fill:matched', owner: 'A', marketId: 'm', fill, timestamp: 1 },
      { event: 'fill:matched', owner: 'B', marketId: undefined, fill, timestamp: 2 },
      { event: 'balance:update', owner: 'B', balance: { usdc: '1' }, timestamp: 3 },
    ];
    expect(userEventsJson(events)).toBe(JSON.stringify(events));
    expect(userEventsJson([])).toBe('[]');
  });
});
