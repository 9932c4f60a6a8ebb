// Persistence of the embedded ledger: clean reopen, and kill -9 of a writer process mid-stream.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Keypair, PublicKey } from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { EmbeddedLedger } from '../src/ledger.js';
import { signedTx, tempDir } from '../src/testing/transactions.js';

const writer = fileURLToPath(new URL('./fixtures/ledger-writer.ts', import.meta.url));

describe('ledger persistence', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  it('keeps accounts, history, keys and recent blockhashes across close/reopen', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const alice = Keypair.generate();
    const bob = Keypair.generate();
    let ledger = await EmbeddedLedger.open({ dataDir: dir.path });
    const info = ledger.bootstrapInfo;
    const mint = new PublicKey(info.usdcMint);
    await ledger.airdrop(alice.publicKey, 2_000_000_000n);
    await ledger.mintUsdc(alice.publicKey, 9_000_000n);
    const bobAta = getAssociatedTokenAddressSync(mint, bob.publicKey);
    const landed = signedTx(ledger.getLatestBlockhash().blockhash, alice, [
      createAssociatedTokenAccountIdempotentInstruction(alice.publicKey, bobAta, bob.publicKey, mint),
      createTransferInstruction(getAssociatedTokenAddressSync(mint, alice.publicKey), bobAta, alice.publicKey, 4_000_000n),
    ]);
    const { signature } = await ledger.sendRawTransaction(landed);
    ledger.warpTime(7200);
    const { blockhash } = ledger.getLatestBlockhash();
    const slot = ledger.slot;
    const solAfter = ledger.getBalance(alice.publicKey);
    await ledger.close();

    ledger = await EmbeddedLedger.open({ dataDir: dir.path });
    try {
      expect(ledger.bootstrapInfo).toEqual(info);
      expect(ledger.getTokenBalance(bobAta)).toBe(4_000_000n);
      expect(ledger.getBalance(alice.publicKey)).toBe(solAfter);
      expect(ledger.getTransaction(signature)?.err).toBeNull();
      expect(ledger.slot).toBeGreaterThan(slot);
      expect(ledger.isBlockhashValid(blockhash)).toBe(true);
      expect(ledger.unixTimestamp - Date.now() / 1000).toBeGreaterThan(7000);
      expect(statSync(join(dir.path, 'keys', 'treasury.json')).mode & 0o777).toBe(0o600);
      // The same signed transaction cannot land twice, even across a restart.
      const again = signedTx(blockhash, alice, [
        createTransferInstruction(getAssociatedTokenAddressSync(mint, alice.publicKey), bobAta, alice.publicKey, 1n),
      ]);
      await ledger.sendRawTransaction(again);
      await expect(ledger.sendRawTransaction(again)).rejects.toMatchObject({ kind: 'preflight', err: 'AlreadyProcessed' });
      // One landed before the restart, its blockhash still valid: the recent window is rebuilt at open.
      await expect(ledger.sendRawTransaction(landed)).rejects.toMatchObject({ kind: 'preflight', err: 'AlreadyProcessed' });
      expect(ledger.getSignatureStatus(signature)).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    } finally {
      await ledger.close();
    }
  });

  // One sender at a time (a group of one per turn), and eight at once (groups of up to eight per commit).
  it.each([1, 8])('survives kill -9 with %i in flight: every reported transaction is there, balances match history', async (inFlight) => {
    const dir = tempDir();
    dirs.push(dir);
    // `node --import tsx` keeps the writer in one process: the tsx CLI would fork, and SIGKILL cannot be relayed.
    const child = spawn(process.execPath, ['--conditions=pmx-source', '--import', 'tsx', writer, dir.path, '40', String(inFlight)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const reported: string[] = [];
    let wallets: string[] = [];
    await new Promise<void>((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buf += chunk.toString();
        const lines = buf.split('\n');
        buf = lines.pop()!;
        for (const line of lines) {
          const [kind, ...rest] = line.split(' ');
          if (kind === 'WALLETS') wallets = rest;
          if (kind === 'SIG') reported.push(rest[0]!);
        }
        if (reported.length >= 300 && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.once('exit', (code, sig) => (sig === 'SIGKILL' ? resolve() : reject(new Error(`writer exited early: ${code}`))));
    });
    await new Promise((r) => child.once('close', r));

    const ledger = await EmbeddedLedger.open({ dataDir: dir.path });
    try {
      for (const sig of reported) expect(ledger.getTransaction(sig)?.err).toBeNull();
      const [, , bobAta] = wallets;
      const history = ledger.getSignaturesForAddress(bobAta!, { limit: 1000 });
      const transfers = history.length - 1; // minus the ATA creation
      expect(transfers).toBeGreaterThanOrEqual(reported.length);
      expect(ledger.getTokenBalance(bobAta!)).toBe(BigInt(transfers));
    } finally {
      await ledger.close();
    }
  });
});
