/**
 * What one Solana transaction may carry, as Agave enforces it: the cluster refuses more, so the
 * daemon's assembly, the settlement batch planner and the local cluster all check these two.
 */

/** A transaction's wire size limit in bytes (Agave's PACKET_DATA_SIZE: an IPv6 MTU minus headers). */
export const PACKET_DATA_SIZE = 1232;

/** Accounts one transaction may lock (Agave's MAX_TX_ACCOUNT_LOCKS, as LiteSVM applies it). */
export const MAX_TX_ACCOUNT_LOCKS = 64;
