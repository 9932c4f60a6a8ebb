// src/domain/orderbook/types.ts
var BPS = 10000n;
var MAX_LIMIT_PRICE = 9999;
var MAX_MARKET_PRICE = 1e4;
var DEFAULT_FEES = { takerFeeBps: 25n, makerRebateBps: 5n };

// src/domain/orderbook/order-message.ts
var U64_MAX = (1n << 64n) - 1n;
var I64_MIN = -(1n << 63n);
var I64_MAX = (1n << 63n) - 1n;

// src/domain/orderbook/amounts.ts
function ceilDiv(a, b) {
  return a <= 0n ? 0n : (a + b - 1n) / b;
}
var PRICE = Array.from({ length: 10001 }, (_, p) => BigInt(p));
var EXACT_IN_DOUBLE = 900000000000n;
function buyCommitment(remaining, priceBps) {
  if (remaining < EXACT_IN_DOUBLE) {
    const n = Number(remaining) * priceBps;
    const rest = n % 1e4;
    return BigInt((n - rest) / 1e4 + (rest > 0 ? 1 : 0));
  }
  return (remaining * PRICE[priceBps] + 9999n) / BPS;
}
function payerLeg(order, add) {
  const owed = ceilDiv(order.notional + add, BPS) - order.usdc;
  return owed > 0n ? owed : 0n;
}
function receiverLeg(order, add) {
  return (order.notional + add) / BPS - order.usdc;
}
function fillMoney(type, takerSide, taker, maker, quantity, takerPrice, makerPrice, takerFeeBase, fees) {
  const tAdd = quantity * PRICE[takerPrice];
  const mAdd = quantity * PRICE[makerPrice];
  let t;
  let m;
  let dust;
  if (type === "direct") {
    if (takerSide === "buy") {
      t = payerLeg(taker, tAdd);
      m = receiverLeg(maker, mAdd);
      if (m > t) m = t;
      dust = t - m;
    } else {
      t = receiverLeg(taker, tAdd);
      m = payerLeg(maker, mAdd);
      if (t > m) t = m;
      dust = m - t;
    }
  } else if (type === "complementary") {
    t = payerLeg(taker, tAdd);
    m = payerLeg(maker, mAdd);
    if (t + m < quantity) t = quantity - m;
    dust = t + m - quantity;
  } else {
    t = receiverLeg(taker, tAdd);
    m = receiverLeg(maker, mAdd);
    let excess = t + m - quantity;
    if (excess > 0n) {
      const cut = excess < t ? excess : t;
      t -= cut;
      excess -= cut;
      m -= excess;
    }
    dust = quantity - t - m;
  }
  taker.notional += tAdd;
  taker.usdc += t;
  maker.notional += mAdd;
  maker.usdc += m;
  const takerFee = ceilDiv((takerFeeBase + t) * fees.takerFeeBps, BPS) - ceilDiv(takerFeeBase * fees.takerFeeBps, BPS);
  let makerRebate = t * fees.makerRebateBps / BPS;
  if (makerRebate > takerFee) makerRebate = takerFee;
  return { takerUsdc: t, makerUsdc: m, takerFee, makerRebate, protocolFee: takerFee - makerRebate, roundingDust: dust };
}

// src/domain/orderbook/commitments.ts
var Slots = class {
  values = new BigUint64Array(1024);
  used = 0;
  take(count2) {
    if (this.used + count2 > this.values.length) {
      const next = new BigUint64Array(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    const slot = this.used;
    this.used += count2;
    return slot;
  }
};
var CommitmentLedger = class {
  owners = /* @__PURE__ */ new Map();
  slots = new Slots();
  owner(owner) {
    let entry = this.owners.get(owner);
    if (entry === void 0) {
      entry = { usdcSlot: this.slots.take(1), markets: /* @__PURE__ */ new Map() };
      this.owners.set(owner, entry);
    }
    return entry;
  }
  /** The slot of an owner's USDC total (a resting buy keeps it). */
  usdcSlot(owner) {
    return this.owner(owner).usdcSlot;
  }
  /** The slot of an owner's committed tokens of one market and outcome (a resting sell keeps it). */
  tokenSlot(owner, marketId, outcome) {
    const entry = this.owner(owner);
    let yes = entry.markets.get(marketId);
    if (yes === void 0) {
      yes = this.slots.take(2);
      entry.markets.set(marketId, yes);
    }
    return outcome === "yes" ? yes : yes + 1;
  }
  /** Adds `delta` (negative to release) to the total in `slot`. */
  addAt(slot, delta) {
    this.slots.values[slot] += delta;
  }
  usdc(owner) {
    const entry = this.owners.get(owner);
    return entry ? this.slots.values[entry.usdcSlot] : 0n;
  }
  tokens(owner, marketId, outcome) {
    const yes = this.owners.get(owner)?.markets.get(marketId);
    return yes === void 0 ? 0n : this.slots.values[outcome === "yes" ? yes : yes + 1];
  }
  /** Every owner with a non-zero commitment (zero entries are skipped), for tests and diagnostics. O(owners). */
  entries() {
    const copy = /* @__PURE__ */ new Map();
    const values = this.slots.values;
    for (const [owner, entry] of this.owners) {
      const tokens = /* @__PURE__ */ new Map();
      for (const [marketId, yes] of entry.markets) {
        if (values[yes] !== 0n) tokens.set(`${marketId}:yes`, values[yes]);
        if (values[yes + 1] !== 0n) tokens.set(`${marketId}:no`, values[yes + 1]);
      }
      const usdc = values[entry.usdcSlot];
      if (usdc !== 0n || tokens.size > 0) copy.set(owner, { usdc, tokens });
    }
    return copy;
  }
};

// src/domain/orderbook/tick-bitset.ts
var TickBitset = class {
  constructor(size) {
    this.size = size;
    this.words = new Uint32Array(Math.ceil(size / 32));
    this.summary = new Uint32Array(Math.ceil(this.words.length / 32));
  }
  size;
  words;
  summary;
  set(tick) {
    const w = tick >>> 5;
    this.words[w] |= 1 << (tick & 31);
    this.summary[w >>> 5] |= 1 << (w & 31);
  }
  clear(tick) {
    const w = tick >>> 5;
    const word = this.words[w] & ~(1 << (tick & 31));
    this.words[w] = word;
    if (word === 0) this.summary[w >>> 5] &= ~(1 << (w & 31));
  }
  has(tick) {
    return (this.words[tick >>> 5] & 1 << (tick & 31)) !== 0;
  }
  /** Smallest set tick ≥ from, or -1. */
  nextAtOrAbove(from) {
    if (from < 0) from = 0;
    if (from >= this.size) return -1;
    let w = from >>> 5;
    const first = this.words[w] & ~0 << (from & 31);
    if (first !== 0) return (w << 5) + lowestBit(first);
    w++;
    let s = w >>> 5;
    if (s >= this.summary.length) return -1;
    let bits = (w & 31) === 0 ? this.summary[s] : this.summary[s] & ~0 << (w & 31);
    while (bits === 0) {
      s++;
      if (s >= this.summary.length) return -1;
      bits = this.summary[s];
    }
    w = (s << 5) + lowestBit(bits);
    return (w << 5) + lowestBit(this.words[w]);
  }
  /** Largest set tick ≤ from, or -1. */
  nextAtOrBelow(from) {
    if (from >= this.size) from = this.size - 1;
    if (from < 0) return -1;
    let w = from >>> 5;
    const shift = 31 - (from & 31);
    const first = shift === 0 ? this.words[w] : this.words[w] & ~0 >>> shift;
    if (first !== 0) return (w << 5) + highestBit(first);
    w--;
    if (w < 0) return -1;
    let s = w >>> 5;
    const sShift = 31 - (w & 31);
    let bits = sShift === 0 ? this.summary[s] : this.summary[s] & ~0 >>> sShift;
    while (bits === 0) {
      s--;
      if (s < 0) return -1;
      bits = this.summary[s];
    }
    w = (s << 5) + highestBit(bits);
    return (w << 5) + highestBit(this.words[w]);
  }
};
function lowestBit(x) {
  return 31 - Math.clz32(x & -x);
}
function highestBit(x) {
  return 31 - Math.clz32(x);
}

// src/domain/orderbook/ladder.ts
var TICKS = 10001;
var OrderNode = class {
  constructor(id, owner, side, outcome, priceBps, quantity, remaining, expiry, postOnly, seq, notional, usdc) {
    this.id = id;
    this.owner = owner;
    this.side = side;
    this.outcome = outcome;
    this.priceBps = priceBps;
    this.quantity = quantity;
    this.remaining = remaining;
    this.expiry = expiry;
    this.postOnly = postOnly;
    this.seq = seq;
    this.notional = notional;
    this.usdc = usdc;
  }
  id;
  owner;
  side;
  outcome;
  priceBps;
  quantity;
  remaining;
  expiry;
  postOnly;
  seq;
  notional;
  usdc;
  prev = null;
  next = null;
  level = null;
  /** USDC (buy) or tokens (sell) this order currently commits; kept to update totals in O(1). */
  committed = 0n;
  /** Epoch of the operation that last reported this order (dedupes reports without a Map). */
  stamp = 0;
  /** Its owner's total in the book's commitment ledger (buy: USDC, sell: its market and outcome), -1 until it commits. */
  ledgerSlot = -1;
  toResting() {
    const { id, owner, side, outcome, priceBps, quantity, remaining, expiry, postOnly, seq, notional, usdc } = this;
    return { id, owner, side, outcome, priceBps, quantity, remaining, expiry, postOnly, seq, notional, usdc };
  }
};
var Level = class {
  constructor(outcome, side, priceBps, sizes) {
    this.outcome = outcome;
    this.side = side;
    this.priceBps = priceBps;
    this.sizes = sizes;
  }
  outcome;
  side;
  priceBps;
  sizes;
  head = null;
  tail = null;
  count = 0;
  /** Epoch of the operation that last reported this level. */
  stamp = 0;
  /** Aggregate remaining quantity of the level's orders. */
  get size() {
    return this.sizes[this.priceBps];
  }
  set size(value) {
    this.sizes[this.priceBps] = value;
  }
};
var NO_LEVELS = [];
var NO_SIZES = new BigUint64Array(0);
var Ladder = class {
  constructor(outcome, side) {
    this.outcome = outcome;
    this.side = side;
  }
  outcome;
  side;
  /** Levels by tick (10,001 slots, allocated with the first order). */
  levels = NO_LEVELS;
  ticks = new TickBitset(TICKS);
  /** Best price (highest bid, lowest ask) or -1 when empty. */
  best = -1;
  /**
   * Each level's aggregate size, by tick: a size kept as a bigint field of a long-lived Level
   * object allocated a bigint and paid a write barrier on every change; a typed array slot does
   * neither (exact while a level holds less than 2^64 raw units: validate.ts caps orders).
   */
  sizes = NO_SIZES;
  append(node) {
    if (this.levels === NO_LEVELS) {
      this.levels = new Array(TICKS);
      this.sizes = new BigUint64Array(TICKS);
    }
    const price = node.priceBps;
    let level = this.levels[price];
    if (level === void 0) {
      level = new Level(this.outcome, this.side, price, this.sizes);
      this.levels[price] = level;
    }
    node.level = level;
    node.prev = level.tail;
    node.next = null;
    if (level.tail === null) level.head = node;
    else level.tail.next = node;
    level.tail = node;
    level.size += node.remaining;
    if (level.count++ === 0) {
      this.ticks.set(price);
      if (this.best === -1 || (this.side === "buy" ? price > this.best : price < this.best)) this.best = price;
    }
    return level;
  }
  remove(node) {
    const level = node.level;
    if (node.prev === null) level.head = node.next;
    else node.prev.next = node.next;
    if (node.next === null) level.tail = node.prev;
    else node.next.prev = node.prev;
    node.prev = node.next = null;
    node.level = null;
    level.size -= node.remaining;
    if (--level.count === 0) {
      this.ticks.clear(level.priceBps);
      if (level.priceBps === this.best) {
        this.best = this.side === "buy" ? this.ticks.nextAtOrBelow(level.priceBps) : this.ticks.nextAtOrAbove(level.priceBps);
      }
    }
    return level;
  }
  /** Levels from the best outward, at most `depth` of them. */
  *walk(depth) {
    let price = this.best;
    for (let n = 0; n < depth && price !== -1; n++) {
      yield this.levels[price];
      price = this.side === "buy" ? this.ticks.nextAtOrBelow(price - 1) : this.ticks.nextAtOrAbove(price + 1);
    }
  }
  sizeAt(price) {
    return this.sizes[price] ?? 0n;
  }
};

// src/domain/errors.ts
var DomainError = class _DomainError extends Error {
  constructor(kind, code, message, extra = {}) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.extra = extra;
    this.name = "DomainError";
  }
  kind;
  code;
  extra;
  toJSON() {
    return { kind: this.kind, code: this.code, message: this.message, extra: this.extra };
  }
  static fromJSON(value) {
    return new _DomainError(value.kind, value.code, value.message, value.extra);
  }
};

// src/domain/orderbook/errors.ts
function invalidOrder(code, message) {
  return new DomainError("invalid", code, message);
}
var WOULD_TAKE = "WOULD_TAKE";
var INVALID_ORDER = "INVALID_ORDER";
var DUPLICATE_ORDER = "DUPLICATE_ORDER";

// src/domain/orderbook/match.ts
var EMPTY = Object.freeze([]);
var OTHER = { yes: "no", no: "yes" };
var NONE = 0;
var DIRECT = 1;
var COMP = 2;
var Matcher = class {
  constructor(book) {
    this.book = book;
  }
  book;
  /** Price (taker's outcome) of the queue `best` chose last. */
  price = 0;
  /** Which crossing queue is best for the taker (NONE, DIRECT or COMP); sets `this.price`. */
  best(direct, comp, buy, limit) {
    const d = direct.best;
    const dOk = d !== -1 && (buy ? d <= limit : d >= limit);
    const c = comp.best;
    const cp = 1e4 - c;
    const cOk = c !== -1 && (buy ? cp <= limit : cp >= limit);
    if (!cOk) {
      this.price = d;
      return dOk ? DIRECT : NONE;
    }
    if (!dOk || (buy ? cp < d : cp > d) || cp === d && comp.levels[c].head.seq < direct.levels[d].head.seq) {
      this.price = cp;
      return COMP;
    }
    this.price = d;
    return DIRECT;
  }
  /** Quantity a FOK order could fill, stopping once `enough` is reached; own orders do not count (they would be cancelled). */
  fillable(direct, comp, order, enough) {
    const buy = order.side === "buy";
    let total = 0n;
    const count2 = (ladder, crosses) => {
      for (const level of ladder.walk(10001)) {
        if (!crosses(level.priceBps)) return;
        for (let node = level.head; node !== null; node = node.next) {
          if (node.owner !== order.owner) total += node.remaining;
          if (total >= enough) return;
        }
      }
    };
    count2(direct, (p) => buy ? p <= order.priceBps : p >= order.priceBps);
    if (total < enough) count2(comp, (p) => buy ? 1e4 - p <= order.priceBps : 1e4 - p >= order.priceBps);
    return total;
  }
  place(order, timeInForce, postOnly) {
    const book = this.book;
    const buy = order.side === "buy";
    const other = OTHER[order.outcome];
    const direct = book.ladders[order.outcome][buy ? "sell" : "buy"];
    const comp = book.ladders[other][buy ? "buy" : "sell"];
    const compType = buy ? "complementary" : "sell_complementary";
    const limit = order.priceBps;
    if (postOnly && this.best(direct, comp, buy, limit) !== NONE) {
      throw invalidOrder(WOULD_TAKE, "postOnly order would take liquidity on arrival");
    }
    const stamp = book.nextStamp();
    let fills = EMPTY;
    let cancelled = EMPTY;
    let changed = EMPTY;
    const touched = [];
    const taker = new OrderNode(
      order.id,
      order.owner,
      order.side,
      order.outcome,
      limit,
      order.quantity,
      order.quantity,
      order.expiry,
      postOnly,
      book.nextSeq++,
      0n,
      0n
    );
    let takerFee = 0n;
    if (timeInForce !== "fok" || this.fillable(direct, comp, order, order.quantity) >= order.quantity) {
      while (taker.remaining > 0n) {
        const which = this.best(direct, comp, buy, limit);
        if (which === NONE) break;
        const ladder = which === DIRECT ? direct : comp;
        const level = ladder.levels[ladder.best];
        const maker = level.head;
        if (level.stamp !== stamp) {
          level.stamp = stamp;
          touched.push(level);
        }
        if (maker.owner === order.owner) {
          if (cancelled === EMPTY) cancelled = [];
          cancelled.push({ order: maker.toResting(), reason: "self_trade" });
          book.unrest(maker);
          continue;
        }
        const quantity = taker.remaining < maker.remaining ? taker.remaining : maker.remaining;
        const type = which === DIRECT ? "direct" : compType;
        const money = fillMoney(type, order.side, taker, maker, quantity, this.price, maker.priceBps, taker.usdc, book.fees);
        takerFee += money.takerFee;
        taker.remaining -= quantity;
        maker.remaining -= quantity;
        level.size -= quantity;
        if (maker.remaining === 0n) book.unrest(maker);
        else book.setCommitment(maker);
        if (maker.stamp !== stamp) {
          maker.stamp = stamp;
          if (changed === EMPTY) changed = [];
          changed.push(maker);
        }
        if (fills === EMPTY) fills = [];
        fills.push({
          seq: ++book.fillSeq,
          makerOrderId: maker.id,
          takerOrderId: order.id,
          makerOwner: maker.owner,
          takerOwner: order.owner,
          takerSide: order.side,
          outcome: order.outcome,
          priceBps: this.price,
          makerSide: maker.side,
          makerOutcome: maker.outcome,
          makerPriceBps: maker.priceBps,
          fillType: type,
          quantity,
          usdcAmount: money.takerUsdc,
          makerUsdc: money.makerUsdc,
          takerFee: money.takerFee,
          makerRebate: money.makerRebate,
          protocolFee: money.protocolFee,
          roundingDust: money.roundingDust
        });
        book.lastPrice[order.outcome] = this.price;
        book.lastPrice[other] = 1e4 - this.price;
      }
    }
    const resting = taker.remaining > 0n && timeInForce === "gtc";
    if (resting) {
      book.rest(taker);
      const level = taker.level;
      if (level.stamp !== stamp) touched.push(level);
    }
    const filled = order.quantity - taker.remaining;
    const status = taker.remaining === 0n ? "filled" : resting ? filled > 0n ? "partially_filled" : "open" : "cancelled";
    const makersChanged = changed === EMPTY ? EMPTY : changed.map((node) => node.toResting());
    return {
      order: { id: order.id, status, remaining: taker.remaining, filled, resting, committedAmount: taker.committed, usdc: taker.usdc, takerFee },
      fills,
      makersChanged,
      cancelled,
      levels: touched.map((level) => ({ outcome: level.outcome, side: level.side, priceBps: level.priceBps, size: level.size }))
    };
  }
};

// src/domain/orderbook/order-index.ts
function hashOf(id) {
  let h = 2166136261 | 0;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h === 0 ? 1 : h;
}
var MIN_CAPACITY = 16;
var OrderIndex = class {
  hashes;
  slots;
  mask;
  count = 0;
  constructor(capacity = MIN_CAPACITY) {
    let cap = MIN_CAPACITY;
    while (cap < capacity * 2) cap *= 2;
    this.hashes = new Int32Array(cap);
    this.slots = new Array(cap).fill(void 0);
    this.mask = cap - 1;
  }
  get size() {
    return this.count;
  }
  /** The slot holding `id`, or -1. */
  find(id, h) {
    const { hashes, slots, mask } = this;
    for (let i = h & mask; ; i = i + 1 & mask) {
      const x = hashes[i];
      if (x === 0) return -1;
      if (x === h && slots[i].id === id) return i;
    }
  }
  get(id) {
    const i = this.find(id, hashOf(id));
    return i === -1 ? void 0 : this.slots[i];
  }
  has(id) {
    return this.find(id, hashOf(id)) !== -1;
  }
  /** Inserts `value` under its id, replacing an entry with the same id. */
  set(value) {
    const h = hashOf(value.id);
    const { hashes, slots, mask } = this;
    let i = h & mask;
    for (; hashes[i] !== 0; i = i + 1 & mask) {
      if (hashes[i] === h && slots[i].id === value.id) {
        slots[i] = value;
        return;
      }
    }
    hashes[i] = h;
    slots[i] = value;
    if (++this.count * 2 > hashes.length) this.grow();
  }
  delete(id) {
    let i = this.find(id, hashOf(id));
    if (i === -1) return false;
    const { hashes, slots, mask } = this;
    for (let j = i + 1 & mask; hashes[j] !== 0; j = j + 1 & mask) {
      const home = hashes[j] & mask;
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      hashes[i] = hashes[j];
      slots[i] = slots[j];
      i = j;
    }
    hashes[i] = 0;
    slots[i] = void 0;
    this.count--;
    return true;
  }
  /** Every value, in slot order (not insertion order). */
  *values() {
    const { hashes, slots } = this;
    for (let i = 0; i < hashes.length; i++) if (hashes[i] !== 0) yield slots[i];
  }
  grow() {
    const old = this.slots;
    const oldHashes = this.hashes;
    const cap = oldHashes.length * 2;
    this.hashes = new Int32Array(cap);
    this.slots = new Array(cap).fill(void 0);
    this.mask = cap - 1;
    for (let i = 0; i < oldHashes.length; i++) {
      const h = oldHashes[i];
      if (h === 0) continue;
      let j = h & this.mask;
      while (this.hashes[j] !== 0) j = j + 1 & this.mask;
      this.hashes[j] = h;
      this.slots[j] = old[i];
    }
  }
};

// src/domain/orderbook/order-rules.ts
var MAX_GTC_LIFETIME_SEC = 30 * 86400;
var MAX_ORDER_QUANTITY = 100000000000000n;

// src/domain/orderbook/validate.ts
function validateOrder(request, exists) {
  const orderType = request.orderType ?? "limit";
  if (orderType !== "limit" && orderType !== "market") throw invalidOrder(INVALID_ORDER, `unknown orderType ${String(orderType)}`);
  const timeInForce = orderType === "market" ? "ioc" : request.timeInForce ?? "gtc";
  if (timeInForce !== "gtc" && timeInForce !== "ioc" && timeInForce !== "fok") throw invalidOrder(INVALID_ORDER, `unknown timeInForce ${String(timeInForce)}`);
  if (request.side !== "buy" && request.side !== "sell") throw invalidOrder(INVALID_ORDER, "side must be buy or sell");
  if (request.outcome !== "yes" && request.outcome !== "no") throw invalidOrder(INVALID_ORDER, "outcome must be yes or no");
  const max = orderType === "market" ? MAX_MARKET_PRICE : MAX_LIMIT_PRICE;
  if (!Number.isInteger(request.priceBps) || request.priceBps < 1 || request.priceBps > max) {
    throw invalidOrder(INVALID_ORDER, `priceBps must be an integer within 1..${max} for a ${orderType} order`);
  }
  if (typeof request.quantity !== "bigint" || request.quantity <= 0n || request.quantity > MAX_ORDER_QUANTITY) {
    throw invalidOrder(INVALID_ORDER, `quantity must be 1 to ${MAX_ORDER_QUANTITY} raw units`);
  }
  const postOnly = request.postOnly === true;
  if (postOnly && (orderType !== "limit" || timeInForce !== "gtc")) throw invalidOrder(INVALID_ORDER, "postOnly needs a gtc limit order");
  if (exists.has(request.id)) throw invalidOrder(DUPLICATE_ORDER, `order ${request.id} is already on the book`);
  return timeInForce;
}

// src/domain/orderbook/book.ts
var OrderBook = class _OrderBook {
  marketId;
  fees;
  commitments;
  ladders = {
    yes: { buy: new Ladder("yes", "buy"), sell: new Ladder("yes", "sell") },
    no: { buy: new Ladder("no", "buy"), sell: new Ladder("no", "sell") }
  };
  index = new OrderIndex();
  lastPrice = { yes: null, no: null };
  nextSeq = 1;
  fillSeq = 0;
  matcher;
  stamp = 0;
  constructor(options) {
    this.marketId = options.marketId;
    this.fees = options.fees ?? DEFAULT_FEES;
    this.commitments = options.commitments ?? new CommitmentLedger();
    this.matcher = new Matcher(this);
  }
  /** Matches an order and rests its remainder per its time in force. Throws DomainError on refusal (nothing changes). */
  place(request) {
    const timeInForce = validateOrder(request, this.index);
    return this.matcher.place(request, timeInForce, request.postOnly === true);
  }
  /** Cancels one resting order; null when it is not on the book (filled, cancelled, unknown). */
  cancel(id, reason = "user") {
    const node = this.index.get(id);
    if (node === void 0) return null;
    this.unrest(node);
    return { order: node.toResting(), reason, level: this.levelOf(node.outcome, node.side, node.priceBps) };
  }
  /**
   * Gives a failed fill's quantity back to a resting order: `remaining` grows by `quantity` (never
   * past the signed quantity), the fill leaves the order's cumulative rounding state (its
   * `notional` and `usdc` share), and the order keeps its place in its level's queue, as if the
   * fill had not happened. Null when the order does not rest on this book.
   */
  giveBack(id, quantity, notional, usdc) {
    const node = this.index.get(id);
    if (node === void 0) return null;
    if (quantity <= 0n || node.remaining + quantity > node.quantity) throw new RangeError(`give-back of ${quantity} to order ${id} exceeds its signed quantity`);
    const before = node.committed;
    node.remaining += quantity;
    node.level.size += quantity;
    node.notional = node.notional > notional ? node.notional - notional : 0n;
    node.usdc = node.usdc > usdc ? node.usdc - usdc : 0n;
    this.setCommitment(node);
    return { order: node.toResting(), level: this.levelOf(node.outcome, node.side, node.priceBps), commitment: node.committed - before };
  }
  /** Cancels every resting order whose expiry (unix seconds) is at or before `now`. O(resting orders). */
  expire(now) {
    const due = [];
    for (const node of this.index.values()) if (node.expiry <= now) due.push(node);
    return this.cancelNodes(due, "expired");
  }
  /** Cancels all of an owner's resting orders (cancel-all). */
  cancelOwner(owner) {
    const mine = [];
    for (const node of this.index.values()) if (node.owner === owner) mine.push(node);
    return this.cancelNodes(mine, "user");
  }
  /** The earliest expiry among resting orders (unix seconds), Infinity when none. O(n), no copy. */
  earliestExpiry() {
    let next = Infinity;
    for (const node of this.index.values()) if (node.expiry < next) next = node.expiry;
    return next;
  }
  get(id) {
    return this.index.get(id)?.toResting();
  }
  /** Resting orders in time priority. O(n log n): the index does not keep insertion order. */
  restingOrders() {
    return [...this.index.values()].sort((a, b) => a.seq - b.seq).map((node) => node.toResting());
  }
  top() {
    const best = (ladder) => ladder.best === -1 ? null : ladder.best;
    return {
      bestBid: { yes: best(this.ladders.yes.buy), no: best(this.ladders.no.buy) },
      bestAsk: { yes: best(this.ladders.yes.sell), no: best(this.ladders.no.sell) },
      lastPrice: { ...this.lastPrice }
    };
  }
  /** Aggregated levels per outcome, best first, at most `depth` per side. */
  depth(depth) {
    const side = (ladder) => [...ladder.walk(depth)].map((level) => ({ priceBps: level.priceBps, size: level.size, orders: level.count }));
    return {
      yes: { bids: side(this.ladders.yes.buy), asks: side(this.ladders.yes.sell) },
      no: { bids: side(this.ladders.no.buy), asks: side(this.ladders.no.sell) }
    };
  }
  snapshot() {
    return { marketId: this.marketId, orders: this.restingOrders(), nextSeq: this.nextSeq, fillSeq: this.fillSeq, lastPrice: { ...this.lastPrice } };
  }
  /** Rebuilds a book from resting orders (any order; time priority comes from `seq`). */
  static restore(options, snapshot) {
    const book = new _OrderBook(options);
    const orders = [...snapshot.orders].sort((a, b) => a.seq - b.seq);
    let maxSeq = 0;
    for (const order of orders) {
      if (book.index.has(order.id)) throw new Error(`restore: duplicate order ${order.id}`);
      if (order.remaining <= 0n || order.remaining > order.quantity) throw new Error(`restore: order ${order.id} has remaining ${order.remaining}`);
      if (!Number.isInteger(order.priceBps) || order.priceBps < 1 || order.priceBps > 9999) throw new Error(`restore: order ${order.id} has price ${order.priceBps}`);
      const node = new OrderNode(
        order.id,
        order.owner,
        order.side,
        order.outcome,
        order.priceBps,
        order.quantity,
        order.remaining,
        order.expiry,
        order.postOnly,
        order.seq,
        order.notional,
        order.usdc
      );
      book.rest(node);
      maxSeq = Math.max(maxSeq, order.seq);
    }
    book.nextSeq = Math.max(snapshot.nextSeq ?? 1, maxSeq + 1);
    book.fillSeq = snapshot.fillSeq ?? 0;
    book.lastPrice = { yes: null, no: null, ...snapshot.lastPrice };
    return book;
  }
  // ---- internals shared with the matcher ----
  rest(node) {
    this.ladders[node.outcome][node.side].append(node);
    this.index.set(node);
    this.setCommitment(node);
  }
  unrest(node) {
    this.ladders[node.outcome][node.side].remove(node);
    this.index.delete(node.id);
    this.releaseCommitment(node);
  }
  setCommitment(node) {
    const next = node.side === "buy" ? buyCommitment(node.remaining, node.priceBps) : node.remaining;
    const prev = node.committed;
    if (next === prev) return;
    node.committed = next;
    this.addToLedger(node, prev === 0n ? next : next - prev);
  }
  releaseCommitment(node) {
    if (node.committed === 0n) return;
    this.addToLedger(node, -node.committed);
    node.committed = 0n;
  }
  /** Adds to the owner's committed total through the ledger slot the order keeps (one lookup per order, not per change). */
  addToLedger(node, delta) {
    if (node.ledgerSlot === -1) {
      node.ledgerSlot = node.side === "buy" ? this.commitments.usdcSlot(node.owner) : this.commitments.tokenSlot(node.owner, this.marketId, node.outcome);
    }
    this.commitments.addAt(node.ledgerSlot, delta);
  }
  levelOf(outcome, side, priceBps) {
    return { outcome, side, priceBps, size: this.ladders[outcome][side].sizeAt(priceBps) };
  }
  /** Hands out epochs that mark levels and orders as already reported within one operation. */
  nextStamp() {
    return ++this.stamp;
  }
  cancelNodes(nodes, reason) {
    const cancelled = [];
    const touched = /* @__PURE__ */ new Map();
    for (const node of nodes) {
      this.unrest(node);
      cancelled.push({ order: node.toResting(), reason });
      touched.set(`${node.outcome}:${node.side}:${node.priceBps}`, [node.outcome, node.side, node.priceBps]);
    }
    return { cancelled, levels: [...touched.values()].map(([o, s, p]) => this.levelOf(o, s, p)) };
  }
};

// bench/support/order-stream.ts
function rng(seed) {
  return () => {
    seed = seed + 1831565813 | 0;
    let t = Math.imul(seed ^ seed >>> 15, 1 | seed);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
function makeStream(count2) {
  const random = rng(12);
  const orders = new Array(count2);
  for (let i = 0; i < count2; i++) {
    const buy = random() < 0.5;
    const offset = Math.floor(random() * 200) - 68;
    const size = 1 + Math.floor(random() * 100);
    orders[i] = { id: `o${i}`, buy, price: buy ? 5e3 - offset : 5001 + offset, size, quantity: BigInt(size) * 1000000n };
  }
  return orders;
}

// bench/engine-profile.ts
var count = Number(process.argv[2] ?? 1e6);
var stream = makeStream(count);
var owners = Array.from({ length: 1e3 }, (_, i) => `u${i}`);
for (let round = 0; round < 4; round++) {
  const book = new OrderBook({ marketId: "bench" });
  let n = 0;
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (const o of stream) {
    book.place({ id: o.id, owner: owners[n++ % owners.length], side: o.buy ? "buy" : "sell", outcome: "yes", priceBps: o.price, quantity: o.quantity, expiry: 0 });
  }
  const wallMs = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1e3;
  console.log(`round ${round}: ${Math.round(count / wallMs * 1e3).toLocaleString("en-US")} orders/s, ${Math.round(count / cpuMs * 1e3).toLocaleString("en-US")} per CPU second, ${book.index.size} resting`);
}
