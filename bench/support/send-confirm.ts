/**
 * Send + confirm: signed SPL transfers, landed by LiteSVM called directly (the ceiling) and through
 * the embedded cluster's JSON-RPC (sendTransaction then getSignatureStatuses, the two calls every
 * client makes) by autocannon, whose own cost is small enough not to be the measurement.
 */
import { address, getTransactionDecoder, lamports } from '@solana/kit';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction, type TransactionInstruction } from '@solana/web3.js';
import { LiteSVM } from 'litesvm';
import { EmbeddedLedger } from '@pmx/local-cluster';
import { cannon } from './cannon.js';

export function signV0(blockhash: string, payer: Keypair, ixs: TransactionInstruction[], extra: Keypair[] = []): Uint8Array {
  const tx = new VersionedTransaction(
    new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: ixs }).compileToV0Message(),
  );
  tx.sign([payer, ...extra]);
  return tx.serialize();
}

/** `n` distinct signed transfers of `from`'s tokens to `to` (distinct amounts → distinct signatures). */
export function signedTransfers(
  blockhash: string,
  mint: PublicKey,
  from: Keypair,
  to: PublicKey,
  n: number,
  firstAmount = 1,
): Uint8Array[] {
  const source = getAssociatedTokenAddressSync(mint, from.publicKey);
  const dest = getAssociatedTokenAddressSync(mint, to);
  return Array.from({ length: n }, (_, i) =>
    signV0(blockhash, from, [createTransferInstruction(source, dest, from.publicKey, BigInt(firstAmount + i))]),
  );
}

/**
 * An embedded ledger in `dir` and `n` signed USDC transfers from a funded payer to a holder (the
 * ledger-side CPU benches); `open` opens the ledger of another tree (two trees in one process).
 */
export async function fundedLedger(
  dir: string,
  n: number,
  open: (options: { dataDir: string }) => Promise<EmbeddedLedger> = (options) => EmbeddedLedger.open(options),
): Promise<{ ledger: EmbeddedLedger; txs: Uint8Array[]; payer: Keypair; to: PublicKey; mint: PublicKey }> {
  const ledger = await open({ dataDir: dir });
  const payer = Keypair.generate();
  const to = Keypair.generate().publicKey;
  await ledger.airdrop(payer.publicKey, 10_000_000_000n);
  await ledger.mintUsdc(payer.publicKey, 10n ** 12n);
  await ledger.mintUsdc(to, 1n);
  const mint = new PublicKey(ledger.bootstrapInfo.usdcMint);
  return { ledger, payer, to, mint, txs: signedTransfers(ledger.getLatestBlockhash().blockhash, mint, payer, to, n) };
}

/** A LiteSVM holding a mint whose tokens `payer` holds and `to` can receive (the direct side and the floor's). */
export function fundedSvm(): { svm: LiteSVM; payer: Keypair; mint: PublicKey; to: PublicKey } {
  const svm = new LiteSVM();
  const payer = Keypair.generate();
  const mint = Keypair.generate();
  const bob = Keypair.generate().publicKey;
  svm.airdrop(address(payer.publicKey.toBase58()), lamports(100_000_000_000n));
  const decoder = getTransactionDecoder();
  svm.sendTransaction(
    decoder.decode(
      signV0(
        svm.latestBlockhash(),
        payer,
        [
          SystemProgram.createAccount({
            fromPubkey: payer.publicKey,
            newAccountPubkey: mint.publicKey,
            lamports: 1_461_600,
            space: MINT_SIZE,
            programId: TOKEN_PROGRAM_ID,
          }),
          createInitializeMint2Instruction(mint.publicKey, 6, payer.publicKey, null),
          createAssociatedTokenAccountIdempotentInstruction(
            payer.publicKey,
            getAssociatedTokenAddressSync(mint.publicKey, payer.publicKey),
            payer.publicKey,
            mint.publicKey,
          ),
          createAssociatedTokenAccountIdempotentInstruction(
            payer.publicKey,
            getAssociatedTokenAddressSync(mint.publicKey, bob),
            bob,
            mint.publicKey,
          ),
          createMintToInstruction(
            mint.publicKey,
            getAssociatedTokenAddressSync(mint.publicKey, payer.publicKey),
            payer.publicKey,
            10n ** 12n,
          ),
        ],
        [mint],
      ),
    ),
  );
  return { svm, payer, mint: mint.publicKey, to: bob };
}

/** LiteSVM on its own (signature and blockhash checks on, no persistence, no RPC): transfers per second. */
export function liteSvmDirect(n: number): number {
  const { svm, payer, mint, to } = fundedSvm();
  const decoder = getTransactionDecoder();
  const txs = signedTransfers(svm.latestBlockhash(), mint, payer, to, n);
  const t0 = performance.now();
  for (const raw of txs) svm.sendTransaction(decoder.decode(raw));
  return n / ((performance.now() - t0) / 1000);
}

/**
 * Every transaction of `txs` sent and confirmed over JSON-RPC by `connections` autocannon
 * connections (each: sendTransaction, then getSignatureStatuses of what it sent). Returns landed
 * and confirmed transactions per second; `failures` counts RPC errors and unconfirmed answers.
 */
export async function sendAndConfirmOverRpc(
  rpcUrl: string,
  txs: Uint8Array[],
  connections = 10,
): Promise<{ tps: number; failures: number }> {
  const bodies = txs.map((raw) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'sendTransaction',
      params: [Buffer.from(raw).toString('base64'), { encoding: 'base64' }],
    }),
  );
  let next = 0;
  let failures = 0;
  // autocannon ends an `amount` run only at its next one-second tick and reports that duration,
  // so every rate was a count over a whole number of seconds: time the last answer ourselves.
  let lastAnswer = 0;
  const headers = { 'content-type': 'application/json' };
  const started = performance.now();
  const result = await cannon({
    url: rpcUrl,
    connections,
    amount: bodies.length * 2,
    requests: [
      {
        method: 'POST',
        headers,
        setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
        onResponse: (_status, body, context) => {
          const reply = JSON.parse(body) as { result?: string };
          if (typeof reply.result !== 'string') failures++;
          (context as { signature?: string }).signature = reply.result;
        },
      },
      {
        method: 'POST',
        headers,
        setupRequest: (req, context) => ({
          ...req,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'getSignatureStatuses',
            params: [[(context as { signature?: string }).signature]],
          }),
        }),
        onResponse: (_status, body) => {
          lastAnswer = performance.now();
          const reply = JSON.parse(body) as { result?: { value: unknown[] } };
          if (!reply.result?.value[0]) failures++;
        },
      },
    ],
  });
  const seconds = (lastAnswer - started) / 1000;
  return { tps: result.requests.total / 2 / seconds, failures: failures + result.non2xx + result.errors };
}
