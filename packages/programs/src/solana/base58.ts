/**
 * The shapes of base58 text, once: a 32-byte public key is 32–44 characters, a 64-byte signature
 * 64–88. A match only says the text can be base58 of about that size; decoding tells the exact
 * byte length. The `*_PATTERN` strings are for JSON schemas, the RegExps for code.
 */
const ALPHABET = '[1-9A-HJ-NP-Za-km-z]';

export const PUBKEY_PATTERN = `^${ALPHABET}{32,44}$`;
export const SIGNATURE_PATTERN = `^${ALPHABET}{64,88}$`;

export const BASE58_PUBKEY = new RegExp(PUBKEY_PATTERN);
export const BASE58_SIGNATURE = new RegExp(SIGNATURE_PATTERN);
/** Base58 text of any length (the empty string included): check the length where it matters. */
export const BASE58_TEXT = new RegExp(`^${ALPHABET}*$`);
