/**
 * The ledger faucet (fee payer of the dev helpers) is topped up to FUNDING at open when below
 * FLOOR: written outside any transaction, and journaled like a transaction's writes.
 */
import type { LiteSVM } from 'litesvm';
import type { LedgerKeys } from './bootstrap.js';
import { readAccount, SYSTEM_PROGRAM, writeAccount } from './svm-accounts.js';
import type { TransactionRecordStore } from './transaction-record.store.js';

const FAUCET_FLOOR = 10n ** 17n;
const FAUCET_FUNDING = 10n ** 18n;

export function fundFaucet(svm: LiteSVM, store: TransactionRecordStore, keys: LedgerKeys): void {
  const addr = keys.ledgerFaucet.publicKey.toBase58();
  const acc = readAccount(svm, addr);
  if (acc && acc.lamports >= FAUCET_FLOOR) return;
  const funded = { owner: SYSTEM_PROGRAM, lamports: FAUCET_FUNDING, data: new Uint8Array(0), executable: false };
  writeAccount(svm, addr, funded);
  store.journalAccounts(new Map([[addr, funded]]));
}
