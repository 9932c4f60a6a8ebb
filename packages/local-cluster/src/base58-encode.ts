/**
 * Base58 text of bytes (Bitcoin's alphabet, as bs58), for the ledger's hot path: every landed
 * transaction's signature is named by the base58 of its 64 bytes. bs58 (base-x) divides the
 * whole number by 58 one byte at a time (about 64 × 88 steps for a signature, ~10 µs here); this
 * keeps the number in limbs of 58^5 and feeds it two bytes a step (32 × at most 18 steps), with
 * every intermediate below 2^53 (a limb < 2^29.3, times 2^16, plus a carry). Same text as bs58.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const LIMB = 58 ** 5;
const DIGITS = Array.from({ length: 58 * 58 }, (_, i) => ALPHABET[Math.floor(i / 58)]! + ALPHABET[i % 58]!);

/** The limbs (58^5 each, least significant first) times `base` plus `value`. */
function feed(limbs: number[], base: number, value: number): void {
  let carry = value;
  for (let j = 0; j < limbs.length; j++) {
    const x = limbs[j]! * base + carry;
    carry = Math.floor(x / LIMB);
    limbs[j] = x - carry * LIMB;
  }
  while (carry > 0) {
    const next = Math.floor(carry / LIMB);
    limbs.push(carry - next * LIMB);
    carry = next;
  }
}

/** Five base58 digits of a limb, most significant first. */
function limbText(limb: number): string {
  const low = limb % 3364; // 58²
  const rest = (limb - low) / 3364;
  const mid = rest % 3364;
  const high = (rest - mid) / 3364; // < 58
  return ALPHABET[high]! + DIGITS[mid]! + DIGITS[low]!;
}

export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const limbs: number[] = [];
  let i = zeros;
  if ((bytes.length - zeros) % 2 === 1) feed(limbs, 256, bytes[i++]!);
  for (; i < bytes.length; i += 2) feed(limbs, 65536, bytes[i]! * 256 + bytes[i + 1]!);
  let text = '';
  for (let j = limbs.length - 1; j >= 0; j--) text += limbText(limbs[j]!);
  // The top limb's leading zero digits are not part of the number; each leading zero byte is a '1'.
  let start = 0;
  while (start < text.length && text[start] === '1') start++;
  return '1'.repeat(zeros) + text.slice(start);
}
