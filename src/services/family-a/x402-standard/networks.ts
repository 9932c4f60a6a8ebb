/**
 * CAIP-2 ids of the Solana clusters: `solana:` and the first 32 characters of the genesis hash.
 * The x402 Foundation's SVM client accepts only these three; the embedded cluster therefore
 * announces devnet's id, and a client points its RPC URL at the embedded cluster instead
 * (docs/x402-standard.md says so plainly).
 */
export const SOLANA_CAIP2 = {
  mainnet: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  devnet: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  testnet: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
} as const;

/**
 * The default CAIP-2 id, from the documented flavour's network name: mainnet's for
 * solana-mainnet, devnet's otherwise (solana-devnet, and solana-localnet: the embedded cluster).
 */
export function caip2For(v1Network: string | undefined): string {
  return v1Network === 'solana-mainnet' ? SOLANA_CAIP2.mainnet : SOLANA_CAIP2.devnet;
}
