/** `@pmx/client/solana`: the transaction helpers that need @solana/web3.js (see transactions.ts). */
export { decodeTransaction, sendAndConfirm, signAndSend } from './transactions.js';
