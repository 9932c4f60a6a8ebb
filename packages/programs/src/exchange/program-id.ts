/**
 * The exchange program's address (Family C). Generated once from a fresh keypair; only an address
 * in the embedded cluster. Builders, PDA helpers and the handler take an optional `programId`.
 */
import { PublicKey } from '@solana/web3.js';

export const EXCHANGE_PROGRAM_ADDRESS = 'GSVp1xUBUgzPNhKkZcB2PMacJL3W5yy4DP7WLLtsi6Cp';
export const EXCHANGE_PROGRAM_ID = new PublicKey(EXCHANGE_PROGRAM_ADDRESS);
