/**
 * The context the executor hands a reference program: HandlerContext, whose account reads go
 * through the states kept since the ledger's last write (touched-accounts.ts) with each owner's
 * PublicKey made once. A settle reads its config, market, fee account, orders and escrows once or
 * more each, between writes, and each read copied the account out of LiteSVM and decoded its owner
 * from base58 (issue 31, thirteenth pass). The kept state is shared, so the handler gets its data
 * copied as before: what it sees, and may change, is its own. A write's owner check reads the same
 * kept state (a settle writes each order, receipt and the market just after reading it).
 */
import type { PublicKey } from '@solana/web3.js';
import { addressOf, publicKeyOf } from '@pmx/programs';
import { HandlerContext, type HandlerContextDeps } from './handler-context.js';
import { SYSVAR_INSTRUCTIONS_ID } from './instructions-sysvar.js';
import type { RuntimeAccount } from './program-runtime.js';
import type { StoredAccount } from './svm-accounts.js';
import { readTouchedAccount } from './touched-accounts.js';

export class ExecutionContext extends HandlerContext {
  constructor(private readonly deps: HandlerContextDeps) {
    super(deps);
  }

  override getAccount(address: PublicKey): RuntimeAccount | null {
    if (address.equals(SYSVAR_INSTRUCTIONS_ID)) return super.getAccount(address);
    const acc = readTouchedAccount(this.deps.svm, addressOf(address));
    if (!acc) return null;
    return { owner: publicKeyOf(acc.owner), lamports: acc.lamports, data: Buffer.from(acc.data), executable: acc.executable };
  }

  protected override currentAccount(addr: string): StoredAccount | null {
    return readTouchedAccount(this.deps.svm, addr);
  }
}
