/**
 * The cluster's unix time, read from the Clock sysvar (offset 32, i64): the time the program
 * compares resolution times against, which on the embedded cluster tests may move ahead of wall
 * time. Falls back to wall time when the sysvar cannot be read.
 */
import type { ChainClient } from '../../chain/chain-client.js';

const CLOCK_SYSVAR = 'SysvarC1ock11111111111111111111111111111111';

export async function clusterUnixTime(chain: ChainClient): Promise<bigint> {
  const clock = await chain.getAccount(CLOCK_SYSVAR).catch(() => null);
  if (clock && clock.data.length >= 40) return clock.data.readBigInt64LE(32);
  return BigInt(Math.floor(Date.now() / 1000));
}
