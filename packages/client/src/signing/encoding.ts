/**
 * The byte encodings the API uses, without Buffer or a base58 package: the client runs in
 * browsers as well as in Node, and a bot installs @pmx/client alone.
 */
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B58_INDEX = new Map([...B58].map((c, i) => [c, i]));

export function base58Decode(text: string): Uint8Array {
  let value = 0n;
  for (const c of text) {
    const digit = B58_INDEX.get(c);
    if (digit === undefined) throw new Error(`not base58: ${JSON.stringify(text)}`);
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  for (; value > 0n; value >>= 8n) bytes.unshift(Number(value & 0xffn));
  // Each leading "1" is a leading zero byte.
  for (const c of text) {
    if (c !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

export function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  let out = '';
  for (; value > 0n; value /= 58n) out = B58[Number(value % 58n)]! + out;
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A 32-byte public key from its base58 text (an address that is not 32 bytes is refused here, not by the API). */
export function publicKeyBytes(base58: string): Uint8Array {
  const bytes = base58Decode(base58);
  if (bytes.length !== 32) throw new Error(`not a 32-byte public key: ${base58}`);
  return bytes;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
