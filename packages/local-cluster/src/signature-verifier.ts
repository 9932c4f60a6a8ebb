/**
 * Ed25519 verification of transaction signatures and of the Ed25519 precompile, as Agave
 * applies it: ed25519-dalek's `verify_strict`. The rule has one implementation, shared with the
 * API's signed-message verifier (@pmx/programs, src/solana/ed25519-strict.ts), so a signature the API accepts is
 * exactly one the chain accepts. Parsed keys are cached there (fee payers and operators sign most
 * transactions).
 */
export { isSmallOrderEncoding, verifyStrict as verifyEd25519 } from '@pmx/programs';
