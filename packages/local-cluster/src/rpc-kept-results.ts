/**
 * Kept JSON of account reads (issue 31, fourteenth pass). getAccountInfo and its kin answer from
 * account bytes, the slot and their params alone, and a client polling an account asks the same
 * thing many times a slot. Every write to the ledger's accounts moves its write version
 * (write-version.ts; the slot's own sysvars included), so a result's JSON made at one version and
 * slot is the result's JSON until either moves: the next call with the same params gets the same
 * bytes without reading or encoding the account again. Errors are never kept (only results), and
 * everything kept is dropped at the first call that sees a new version or slot.
 */

/** The ledger's side of the stamp (EmbeddedLedger has both). */
export interface KeptResultsSource {
  readonly accountWriteVersion: number;
  readonly slot: number;
}

/**
 * Methods whose result is a function of the accounts, the slot and the params only, answered
 * synchronously. Anything reading the clock's time, the signature window or an index that is not
 * moved with the accounts does not belong here.
 */
export const KEPT_METHODS: ReadonlySet<string> = new Set([
  'getAccountInfo',
  'getMultipleAccounts',
  'getBalance',
  'getTokenAccountBalance',
  'getTokenSupply',
]);

/** A result's JSON above this is made afresh each time (a big getMultipleAccounts). */
const MAX_KEPT_CHARS = 64 * 1024;
/** All kept JSON together, in characters: past it everything is dropped and keeping starts over. */
const MAX_TOTAL_CHARS = 4 * 1024 * 1024;

export class KeptResults {
  private readonly texts = new Map<string, string>();
  private version = -1;
  private slot = -1;
  private total = 0;

  constructor(
    private readonly source: KeptResultsSource,
    readonly methods: ReadonlySet<string> = KEPT_METHODS,
  ) {}

  /** The kept result JSON for `key`, if the ledger has not moved since it was made. */
  get(key: string): string | undefined {
    const version = this.source.accountWriteVersion;
    const slot = this.source.slot;
    if (version !== this.version || slot !== this.slot) {
      this.texts.clear();
      this.total = 0;
      this.version = version;
      this.slot = slot;
      return undefined;
    }
    return this.texts.get(key);
  }

  /**
   * Keeps `text`, made after `get(key)` missed, unless the ledger moved in between (then it
   * belongs to no stamp this cache can name).
   */
  set(key: string, text: string): void {
    if (text.length > MAX_KEPT_CHARS) return;
    if (this.source.accountWriteVersion !== this.version || this.source.slot !== this.slot) return;
    if (this.total + text.length > MAX_TOTAL_CHARS) {
      this.texts.clear();
      this.total = 0;
    }
    this.texts.set(key, text);
    this.total += text.length;
  }
}
