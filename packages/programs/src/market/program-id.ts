/**
 * The market program's address. It was generated once from a fresh keypair and is only an address
 * in the embedded cluster (which runs the TypeScript reference implementation under it); a
 * deployment to a real cluster passes its own id through config to the builders, PDA helpers and
 * handler (every one of them takes an optional `programId`).
 */
import { PublicKey } from '@solana/web3.js';

export const MARKET_PROGRAM_ADDRESS = 'GELMpm4sWV5FUGcety6aAGdEJyMjUdym7MBVykXEcXf4';
export const MARKET_PROGRAM_ID = new PublicKey(MARKET_PROGRAM_ADDRESS);
