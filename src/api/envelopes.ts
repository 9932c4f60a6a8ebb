/**
 * The three error envelopes of the spec, and the success wrapper of Families A and B.
 *   A: {success:false, error:{code, message}, ...extra}
 *   B: {success:false, error:"message", code, ...extra}   (code is an extra field, for machines)
 *   C: {error:"CODE", message:"...", ...extra}
 */
import type { Family } from './families.js';

export interface ApiErrorBody {
  code: string;
  message: string;
  extra?: Record<string, unknown>;
}

export function errorEnvelope(family: Family, { code, message, extra = {} }: ApiErrorBody): Record<string, unknown> {
  switch (family) {
    case 'A':
      return { success: false, error: { code, message }, ...extra };
    case 'B':
      return { success: false, error: message, code, ...extra };
    case 'C':
      return { error: code, message, ...extra };
  }
}

export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}
