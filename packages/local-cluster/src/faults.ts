/**
 * Fault injection for the embedded cluster, off by default. Settlement and retry logic is tested
 * against it: dropped transactions (accepted, never executed), slow confirmations, blockhashes
 * that expire early, and sends that fail with a retryable node error.
 */
export interface FaultConfig {
  /** Share (0..1) of accepted transactions silently dropped: a signature is returned, nothing lands. */
  dropRate?: number;
  /** Delay between acceptance and execution; the signature status is null meanwhile. */
  confirmDelayMs?: number;
  /** Blockhashes expire after 2 blocks instead of 150. */
  expireBlockhashesEarly?: boolean;
  /** The next N sends fail with a retryable NODE_UNAVAILABLE error. */
  failNextSends?: number;
  /**
   * Accepted transactions whose wire bytes contain any of these byte strings (e.g. a signer's
   * public key, which an Ed25519 proof carries inline) are dropped: a proof that never lands.
   */
  dropContaining?: readonly Uint8Array[];
}

export class LedgerFaults {
  private cfg: Required<FaultConfig> = {
    dropRate: 0,
    confirmDelayMs: 0,
    expireBlockhashesEarly: false,
    failNextSends: 0,
    dropContaining: [],
  };

  constructor(private readonly onChange: (cfg: Readonly<Required<FaultConfig>>) => void = () => {}) {}

  set(cfg: FaultConfig): void {
    const next = { ...this.cfg, ...cfg };
    if (!(next.dropRate >= 0 && next.dropRate <= 1)) throw new RangeError('dropRate must be within 0..1');
    if (!(next.confirmDelayMs >= 0) || !(next.failNextSends >= 0)) throw new RangeError('confirmDelayMs and failNextSends must be >= 0');
    this.cfg = next;
    this.onChange(this.cfg);
  }

  reset(): void {
    this.set({ dropRate: 0, confirmDelayMs: 0, expireBlockhashesEarly: false, failNextSends: 0, dropContaining: [] });
  }

  get config(): Readonly<Required<FaultConfig>> {
    return this.cfg;
  }

  takeFailedSend(): boolean {
    if (this.cfg.failNextSends <= 0) return false;
    this.cfg = { ...this.cfg, failNextSends: this.cfg.failNextSends - 1 };
    return true;
  }

  shouldDrop(raw: Uint8Array): boolean {
    if (this.cfg.dropContaining.some((pattern) => Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).indexOf(pattern) >= 0))
      return true;
    return this.cfg.dropRate > 0 && Math.random() < this.cfg.dropRate;
  }
}
