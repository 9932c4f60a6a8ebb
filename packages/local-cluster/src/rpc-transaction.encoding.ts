/**
 * getTransaction output in the json, jsonParsed and base64 encodings, built from the ledger's
 * record: the signed message as submitted plus meta (err, status, fee, balances, token balances
 * with uiTokenAmount, logs). Instruction parsing for jsonParsed covers System and SPL Token
 * transfers; other instructions are "partially decoded", as real nodes do for unknown programs.
 */
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { TransactionRecord } from './transaction-record.store.js';
import { TOKEN_PROGRAM, TOKEN_2022_PROGRAM, uiTokenAmount, type TokenBalance } from './token-balances.js';

const SYSTEM = '11111111111111111111111111111111';

function tokenBalances(list: TokenBalance[]): unknown[] {
  return list.map((t) => ({
    accountIndex: t.accountIndex,
    mint: t.mint,
    owner: t.owner,
    programId: t.programId,
    uiTokenAmount: uiTokenAmount(t.amount, t.decimals),
  }));
}

interface Loaded {
  writable: string[];
  readonly: string[];
}

function meta(rec: TransactionRecord, version: 'legacy' | 0, loaded: Loaded): Record<string, unknown> {
  const m: Record<string, unknown> = {
    err: rec.err,
    status: rec.err === null ? { Ok: null } : { Err: rec.err },
    fee: Number(rec.fee),
    preBalances: rec.preBalances.map(Number),
    postBalances: rec.postBalances.map(Number),
    innerInstructions: [],
    logMessages: rec.logs,
    preTokenBalances: tokenBalances(rec.preTokenBalances),
    postTokenBalances: tokenBalances(rec.postTokenBalances),
    rewards: [],
    computeUnitsConsumed: rec.unitsConsumed,
  };
  if (version === 0) m.loadedAddresses = loaded;
  return m;
}

function parseInstruction(programId: string, accounts: string[], data: Uint8Array): unknown {
  const d = Buffer.from(data);
  if (programId === SYSTEM && d.length >= 12 && d.readUInt32LE(0) === 2) {
    return {
      program: 'system',
      programId,
      parsed: { type: 'transfer', info: { source: accounts[0], destination: accounts[1], lamports: Number(d.readBigUInt64LE(4)) } },
      stackHeight: null,
    };
  }
  if ((programId === TOKEN_PROGRAM || programId === TOKEN_2022_PROGRAM) && d.length >= 9) {
    const program = programId === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022';
    const amount = d.readBigUInt64LE(1).toString();
    if (d[0] === 3)
      return {
        program,
        programId,
        parsed: { type: 'transfer', info: { source: accounts[0], destination: accounts[1], authority: accounts[2], amount } },
        stackHeight: null,
      };
    if (d[0] === 7)
      return {
        program,
        programId,
        parsed: { type: 'mintTo', info: { mint: accounts[0], account: accounts[1], mintAuthority: accounts[2], amount } },
        stackHeight: null,
      };
    if (d[0] === 12 && d.length >= 10) {
      return {
        program,
        programId,
        parsed: {
          type: 'transferChecked',
          info: {
            source: accounts[0],
            mint: accounts[1],
            destination: accounts[2],
            authority: accounts[3],
            tokenAmount: uiTokenAmount(BigInt(amount), d[9]!),
          },
        },
        stackHeight: null,
      };
    }
  }
  return { programId, accounts, data: bs58.encode(data), stackHeight: null };
}

export function encodeTransaction(rec: TransactionRecord, encoding: string): Record<string, unknown> {
  const tx = VersionedTransaction.deserialize(rec.raw);
  const msg = tx.message;
  const version = msg.version === 'legacy' ? 'legacy' : 0;
  // As a real node reports it: the message lists its static keys; addresses loaded from lookup
  // tables (recorded after them, writable first) appear in meta.loadedAddresses.
  const nStatic = msg.staticAccountKeys.length;
  const lookups = msg.version === 0 ? msg.addressTableLookups : [];
  const nWritable = lookups.reduce((n, l) => n + l.writableIndexes.length, 0);
  const loaded = { writable: rec.accountKeys.slice(nStatic, nStatic + nWritable), readonly: rec.accountKeys.slice(nStatic + nWritable) };
  const base = { slot: rec.slot, blockTime: rec.blockTime, version, meta: meta(rec, version, loaded) };
  if (encoding === 'base64' || encoding === 'base58') {
    const wire = Buffer.from(rec.raw);
    return { ...base, transaction: [encoding === 'base64' ? wire.toString('base64') : bs58.encode(wire), encoding] };
  }
  const keys = rec.accountKeys;
  const ixs = msg.compiledInstructions;
  const message: Record<string, unknown> =
    encoding === 'jsonParsed'
      ? {
          accountKeys: keys.map((pubkey, i) => ({
            pubkey,
            writable: rec.writable[i],
            signer: i < rec.signers.length,
            source: i < nStatic ? 'transaction' : 'lookupTable',
          })),
          recentBlockhash: msg.recentBlockhash,
          instructions: ixs.map((ix) =>
            parseInstruction(
              keys[ix.programIdIndex]!,
              ix.accountKeyIndexes.map((a) => keys[a]!),
              ix.data,
            ),
          ),
        }
      : {
          accountKeys: keys.slice(0, nStatic),
          header: msg.header,
          recentBlockhash: msg.recentBlockhash,
          instructions: ixs.map((ix) => ({
            programIdIndex: ix.programIdIndex,
            accounts: ix.accountKeyIndexes,
            data: bs58.encode(ix.data),
            stackHeight: null,
          })),
        };
  if (version === 0) {
    message.addressTableLookups = lookups.map((l) => ({
      accountKey: l.accountKey.toBase58(),
      writableIndexes: l.writableIndexes,
      readonlyIndexes: l.readonlyIndexes,
    }));
  }
  return { ...base, transaction: { signatures: tx.signatures.map((s) => bs58.encode(s)), message } };
}
