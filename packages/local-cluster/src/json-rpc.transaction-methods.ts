/**
 * Transaction methods of the JSON-RPC endpoint: send (with a node's preflight), simulate,
 * statuses, history and airdrops, with a real node's error codes and messages.
 */
import bs58 from 'bs58';
import { LedgerError } from './ledger-error.js';
import { SOLANA_CORE_VERSION } from './json-rpc.account-methods.js';
import type { EmbeddedLedger } from './ledger.js';
import { encodeTransaction } from './rpc-transaction.encoding.js';
import { configObject, intParam, optionalInt, optionalSignature, signatureParam, txEncodingParam } from './rpc-params.js';
import {
  invalidParams,
  keyParam,
  RpcError,
  RPC_NODE_UNHEALTHY,
  RPC_SEND_TX_PREFLIGHT_FAILURE,
  RPC_SIGNATURE_VERIFICATION_FAILURE,
  RPC_UNSUPPORTED_TX_VERSION,
  type RpcMethod,
} from './rpc-error.js';

const MAX_AIRDROP_LAMPORTS = 100n * 1_000_000_000n;

/** Agave's MAX_BASE58_SIZE / MAX_BASE64_SIZE for a 1232-byte packet. */
const MAX_ENCODED_TX = { base58: 1683, base64: 1644 } as const;

function decodeWire(encoded: unknown, encoding: unknown): Uint8Array {
  const enc = encoding ?? 'base58';
  if (enc !== 'base58' && enc !== 'base64') throw invalidParams('unsupported transaction encoding (base58 or base64)');
  if (typeof encoded !== 'string' || encoded.length === 0) throw invalidParams('expected an encoded transaction string');
  if (encoded.length > MAX_ENCODED_TX[enc])
    throw invalidParams(`${enc} encoded transaction too large (${encoded.length} bytes, max ${MAX_ENCODED_TX[enc]})`);
  try {
    if (enc === 'base64') {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) throw new Error('not base64');
      return new Uint8Array(Buffer.from(encoded, 'base64'));
    }
    return bs58.decode(encoded);
  } catch {
    throw invalidParams(`invalid ${enc} encoding`);
  }
}

/** Maps a ledger rejection to what a real node answers to sendTransaction. */
export function sendErrorToRpc(e: unknown): RpcError {
  if (!(e instanceof LedgerError)) return new RpcError(-32603, `Internal error: ${(e as Error)?.message ?? String(e)}`);
  if (e.kind === 'signature') return new RpcError(RPC_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
  if (e.kind === 'unavailable') return new RpcError(RPC_NODE_UNHEALTHY, 'Node is unhealthy');
  if (e.kind === 'preflight') {
    return new RpcError(RPC_SEND_TX_PREFLIGHT_FAILURE, e.message, {
      err: e.err,
      logs: e.logs,
      accounts: null,
      unitsConsumed: 0,
      returnData: null,
      innerInstructions: null,
    });
  }
  return invalidParams(e.message);
}

export function transactionMethods(ledger: EmbeddedLedger): Record<string, RpcMethod> {
  const ctx = () => ({ slot: ledger.slot, apiVersion: SOLANA_CORE_VERSION });
  return {
    sendTransaction: async ([encoded, cfg]) => {
      const c = configObject(cfg);
      const raw = decodeWire(encoded, c.encoding);
      try {
        // Clients send concurrently: the transactions of one turn share a commit (group-commit.ts).
        return (await ledger.sendRawTransaction(raw, { preflight: c.skipPreflight !== true, groupCommit: true })).signature;
      } catch (e) {
        // Without preflight a node forwards the transaction and it silently never lands; only
        // signature verification happens at ingress.
        if (c.skipPreflight === true && e instanceof LedgerError && e.kind === 'preflight') return bs58.encode(raw.subarray(1, 65));
        throw sendErrorToRpc(e);
      }
    },
    simulateTransaction: ([encoded, cfg]) => {
      const c = configObject(cfg);
      const raw = decodeWire(encoded, c.encoding);
      const replace = c.replaceRecentBlockhash === true;
      let out;
      try {
        out = ledger.simulateTransaction(raw, { sigVerify: c.sigVerify === true, replaceRecentBlockhash: replace });
      } catch (e) {
        throw sendErrorToRpc(e);
      }
      const value: Record<string, unknown> = {
        err: out.err,
        logs: out.logs,
        accounts: null,
        unitsConsumed: out.unitsConsumed,
        returnData: null,
        innerInstructions: null,
      };
      if (replace) value.replacementBlockhash = ledger.getLatestBlockhash();
      return { context: ctx(), value };
    },
    getSignatureStatuses: ([sigs]) => {
      if (!Array.isArray(sigs) || sigs.length > 256) throw invalidParams('expected an array of at most 256 signatures');
      return {
        context: ctx(),
        value: sigs.map((s) => {
          const st = ledger.getSignatureStatus(signatureParam(s));
          return st ? { ...st, status: st.err === null ? { Ok: null } : { Err: st.err } } : null;
        }),
      };
    },
    getTransaction: ([sig, cfg]) => {
      const c = typeof cfg === 'string' ? { encoding: cfg } : configObject(cfg);
      const encoding = txEncodingParam(c.encoding);
      optionalInt(c.maxSupportedTransactionVersion, 'maxSupportedTransactionVersion', 0);
      const rec = ledger.getTransaction(signatureParam(sig));
      if (!rec) return null;
      const isV0 = (rec.raw[1 + 64 * rec.signers.length]! & 0x80) !== 0;
      if (isV0 && c.maxSupportedTransactionVersion === undefined) {
        throw new RpcError(
          RPC_UNSUPPORTED_TX_VERSION,
          'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
        );
      }
      return encodeTransaction(rec, encoding);
    },
    getSignaturesForAddress: ([addr, cfg]) => {
      const address = keyParam(addr, 'address');
      const c = configObject(cfg);
      const opts = {
        limit: optionalInt(c.limit, 'limit', 1000, 1) ?? 1000,
        before: optionalSignature(c.before, 'before'),
        until: optionalSignature(c.until, 'until'),
      };
      return ledger.getSignaturesForAddress(address, opts).map((s) => ({ ...s, confirmationStatus: 'finalized' }));
    },
    requestAirdrop: async ([pk, lamports]) => {
      const to = keyParam(pk);
      const amount = BigInt(intParam(lamports, 'lamports', Number(MAX_AIRDROP_LAMPORTS), 1));
      try {
        return await ledger.airdrop(to, amount);
      } catch (e) {
        throw sendErrorToRpc(e); // e.g. below rent exemption for a new account: -32002, not a server fault
      }
    },
  };
}
