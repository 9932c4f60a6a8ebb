/** Anchor-style 8-byte discriminators: sha256("global:<ix_name>") and sha256("account:<Name>"). */
import { createHash } from 'node:crypto';

function first8(preimage: string): Buffer {
  return createHash('sha256').update(preimage).digest().subarray(0, 8);
}

export function instructionDiscriminator(name: string): Buffer {
  return first8(`global:${name}`);
}

export function accountDiscriminator(name: string): Buffer {
  return first8(`account:${name}`);
}
