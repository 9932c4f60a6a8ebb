/**
 * How an instruction failure travels from where it happens (a builtin inside LiteSVM, a
 * handler's ProgramError, a refused write) to the transaction's `InstructionError`.
 */
import { ProgramError } from './program-runtime.js';

/**
 * Thrown by `ctx.invoke` (and refused writes) inside a handler: a ProgramError, so handlers can
 * catch or propagate it like any program failure, that also carries the exact inner error
 * (`{"Custom":1}`, `"MissingRequiredSignature"`, …) which a real CPI failure would surface.
 */
export class InvokeError extends ProgramError {
  constructor(
    readonly inner: unknown,
    message: string,
  ) {
    const custom = typeof inner === 'object' && inner !== null && 'Custom' in inner ? Number((inner as { Custom: number }).Custom) : -1;
    super(custom, typeof inner === 'string' ? inner : 'Custom', message);
    this.name = 'InvokeError';
  }
}

/** The outer instruction `index` failed with `inner`; carries the logs it produced. */
export class InstructionFailure extends Error {
  constructor(
    readonly index: number,
    readonly inner: unknown,
  ) {
    super(`instruction ${index} failed`);
    this.name = 'InstructionFailure';
  }
}

export function failureText(inner: unknown): string {
  if (typeof inner === 'object' && inner !== null && 'Custom' in inner) {
    return `custom program error: 0x${Number((inner as { Custom: number }).Custom).toString(16)}`;
  }
  return typeof inner === 'string' ? inner.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() : JSON.stringify(inner);
}
