/**
 * getProgramAccounts over the embedded ledger without holding the event loop: the index names
 * the candidates, and they are read a slice at a time with a turn of the event loop whenever a
 * slice has run a few milliseconds. Each account is as of the moment it was read. A real node
 * answers from one slot; an answer read across turns of the event loop may span transactions,
 * so `atomic` says whether it did (then `slot` is one before the first read: a stamp that can
 * only be older than the state read, so an indexed row it writes never replaces a newer one).
 * A program the index does not cover is one native scan.
 */
import { timeSlicer } from './time-slice.js';
import type { EmbeddedLedger } from './ledger.js';
import type { ProgramAccount } from './ledger-queries.js';
import type { CompiledFilter } from './rpc-params.js';

const SLICE_ACCOUNTS = 256;

export interface SlicedRead {
  accounts: ProgramAccount[];
  /** The slot every account may be stamped with (see above). */
  slot: number;
  atomic: boolean;
}

export async function programAccountsSliced(
  ledger: EmbeddedLedger,
  programId: string,
  filters: readonly CompiledFilter[] = [],
  sliceMs = 4,
): Promise<SlicedRead> {
  const startSlot = ledger.slot;
  const candidates = ledger.programAccountCandidates(programId, filters);
  if (!candidates) return { accounts: ledger.getProgramAccounts(programId, filters), slot: startSlot, atomic: true };
  const slice = timeSlicer(sliceMs);
  const accounts: ProgramAccount[] = [];
  let atomic = true;
  for (let i = 0; i < candidates.length; i += SLICE_ACCOUNTS) {
    for (const found of ledger.readProgramAccounts(programId, candidates.slice(i, i + SLICE_ACCOUNTS), filters)) accounts.push(found);
    if (i + SLICE_ACCOUNTS >= candidates.length) break;
    const turn = slice();
    if (turn) {
      atomic = false;
      await turn;
    }
  }
  return { accounts, slot: atomic ? startSlot : Math.max(0, startSlot - 1), atomic };
}
