/**
 * Small, explicit parsers for environment values. Each returns the parsed value or throws a
 * message that `loadConfig` collects, so one boot reports every bad key at once.
 */
export type Parser<T> = (raw: string) => T;

export const str: Parser<string> = (raw) => raw;

export function int(min: number, max: number): Parser<number> {
  return (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new Error(`must be an integer, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new Error(`must be between ${min} and ${max}, got ${value}`);
    return value;
  };
}

export function oneOf<T extends string>(...values: T[]): Parser<T> {
  return (raw) => {
    if (!(values as string[]).includes(raw)) throw new Error(`must be one of ${values.join(', ')}, got "${raw}"`);
    return raw as T;
  };
}

export const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new Error(`must be true or false, got "${raw}"`);
};

export function url(...protocols: string[]): Parser<string> {
  return (raw) => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new Error(`must be a URL, got "${raw}"`);
    }
    if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
      throw new Error(`must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
    }
    return raw;
  };
}

export function list<T extends string>(allowed: readonly T[]): Parser<T[]> {
  return (raw) => {
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = items.filter((item) => !(allowed as readonly string[]).includes(item));
    if (bad.length > 0) throw new Error(`unknown value(s) ${bad.join(', ')}; allowed: ${allowed.join(', ')}`);
    if (items.length === 0) throw new Error('must name at least one value');
    return items as T[];
  };
}

/** A base58 Solana address (32 bytes); checked loosely here, strictly where it is used. */
export const address: Parser<string> = (raw) => {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(raw)) throw new Error(`must be a base58 address, got "${raw}"`);
  return raw;
};

/** A CAIP-2 Solana network id: `solana:` and the first 32 base58 characters of the cluster's genesis hash. */
export const caip2Solana: Parser<string> = (raw) => {
  if (!/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/.test(raw))
    throw new Error(`must be a CAIP-2 Solana id (solana:<32 base58 characters>), got "${raw}"`);
  return raw;
};

/**
 * TRUST_PROXY: `false` (default: the TCP peer is the client), `true` (trust every proxy), a hop
 * count (`1` behind one reverse proxy), or a comma list of trusted proxy addresses or CIDRs.
 */
export const trustProxy: Parser<boolean | number | string> = (raw) => {
  const v = raw.trim();
  if (/^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  const parts = v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length > 0 && parts.every((p) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p))) return parts.join(',');
  throw new Error(`must be true, false, a hop count or a comma list of addresses/CIDRs, got "${raw}"`);
};
