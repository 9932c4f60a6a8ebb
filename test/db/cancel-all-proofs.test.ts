/** Used cancel-all proofs (migration 0013): claimed once, released, pruned by age — on both dialects. */
import { describe, expect, it } from 'vitest';
import { claimCancelAllProof, pruneCancelAllProofs, releaseCancelAllProof } from '../../db/repositories/clob-cancel-all.repository.js';
import { DIALECTS } from '../helpers/databases.js';

const NOW = '2026-11-26T00:00:00.000Z';

describe.each(DIALECTS)('cancel-all proofs on $name', ({ available, open }) => {
  it.skipIf(!available)('a proof is claimed once until released or pruned', async () => {
    const db = await open();
    try {
      const proof = { owner: 'o1', marketRef: '*', signedAt: 1_790_000_000 };
      expect(await claimCancelAllProof(db.db, proof, NOW)).toBe(true);
      expect(await claimCancelAllProof(db.db, proof, NOW)).toBe(false);
      expect(await claimCancelAllProof(db.db, { ...proof, marketRef: 'm1' }, NOW)).toBe(true); // another signed text
      expect(await claimCancelAllProof(db.db, { ...proof, owner: 'o2' }, NOW)).toBe(true);
      await releaseCancelAllProof(db.db, proof);
      expect(await claimCancelAllProof(db.db, proof, NOW)).toBe(true);
      await pruneCancelAllProofs(db.db, proof.signedAt); // strictly older only: this one stays
      expect(await claimCancelAllProof(db.db, proof, NOW)).toBe(false);
      await pruneCancelAllProofs(db.db, proof.signedAt + 1);
      expect(await db.db.selectFrom('clob_cancel_all_uses').selectAll().execute()).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
