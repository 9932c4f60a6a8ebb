/**
 * The send + confirm row's durable floor, in a process of its own (as the daemon is): the least
 * work a JSON-RPC ledger that keeps the embedded ledger's guarantees can do per transaction.
 * A bare node:http server parses each call (JSON, then base64 wire bytes), lands
 * `sendTransaction` on LiteSVM (signature and blockhash checks on, its raw binding: no
 * re-encoding), records the transaction (signature, slot, wire bytes, err) in SQLite with the
 * ledger's durability (WAL, the ledger store's `synchronous` setting), the transactions landed in
 * one turn of the event loop in one commit (raw better-sqlite3, one multi-row INSERT), and only
 * then answers their senders; `getSignatureStatuses` answers from what has been committed. The
 * wire bytes are enough to rebuild the state by replay, so this keeps "nothing a client was told
 * landed is lost by kill -9". What the daemon does beyond it (meta, address index, account
 * journal, events, slots) is its own cost above the floor.
 *
 * Prints `{ url, blockhash, mint, payer, to }` (payer: secret key bytes) as one JSON line on
 * stdout once it listens; exits when stdin closes or on SIGTERM.
 */
import fs from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import bs58 from 'bs58';
import type { LiteSvm as NativeSvm } from 'litesvm/dist/internal.js';
import { FailedTransactionMetadata } from 'litesvm/dist/internal.js';
import { fundedSvm } from './send-confirm.js';

/** As packages/local-cluster's transaction-record.store.ts: a committed WAL frame survives kill -9. */
const LEDGER_SYNCHRONOUS = 'NORMAL';
const SLOT = 1;

interface Waiting {
  signature: string;
  raw: Buffer;
  res: ServerResponse;
  id: unknown;
}

function openRecords(dir: string) {
  const db = new SQLite(path.join(dir, 'floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${LEDGER_SYNCHRONOUS}`);
  db.exec('create table if not exists transactions (signature text primary key, slot integer not null, raw blob not null, err text)');
  const statements = new Map<number, SQLite.Statement>();
  const insert = (count: number) => {
    let statement = statements.get(count);
    if (!statement) {
      statement = db.prepare(`insert into transactions values ${Array.from({ length: count }, () => '(?, ?, ?, null)').join(', ')}`);
      statements.set(count, statement);
    }
    return statement;
  };
  // A turn holds far fewer than SQLite's 32,766 / 3 parameters' worth of rows.
  return db.transaction((group: Waiting[]) => insert(group.length).run(group.flatMap((w) => [w.signature, SLOT, w.raw])));
}

function reply(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function start(): void {
  const { svm, payer, mint, to } = fundedSvm();
  const native = (svm as unknown as { inner: NativeSvm }).inner; // LiteSVM's binding, as svm-raw.ts reaches it
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmx-send-floor-'));
  const commit = openRecords(dir);
  const committed = new Set<string>();
  let group: Waiting[] = [];
  const flush = () => {
    const landed = group;
    group = [];
    commit(landed);
    for (const w of landed) {
      committed.add(w.signature);
      reply(w.res, JSON.stringify({ jsonrpc: '2.0', result: w.signature, id: w.id }));
    }
  };
  const send = (raw: Buffer, res: ServerResponse, id: unknown) => {
    const result = native.sendVersionedTransaction(raw);
    if (result instanceof FailedTransactionMetadata) {
      reply(res, JSON.stringify({ jsonrpc: '2.0', error: { code: -32002, message: result.toString() }, id }));
      return;
    }
    if (group.push({ signature: bs58.encode(raw.subarray(1, 65)), raw, res, id }) === 1) setImmediate(flush);
  };
  const statuses = (signatures: string[], res: ServerResponse, id: unknown) => {
    const value = signatures.map((s) =>
      committed.has(s) ? { slot: SLOT, confirmations: null, err: null, confirmationStatus: 'finalized', status: { Ok: null } } : null,
    );
    reply(res, JSON.stringify({ jsonrpc: '2.0', result: { context: { slot: SLOT }, value }, id }));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method: string; params: unknown[]; id: unknown };
      if (call.method === 'sendTransaction') send(Buffer.from(call.params[0] as string, 'base64'), res, call.id);
      else statuses(call.params[0] as string[], res, call.id);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const info = { url, blockhash: svm.latestBlockhash(), mint: mint.toBase58(), payer: Array.from(payer.secretKey), to: to.toBase58() };
    process.stdout.write(`${JSON.stringify(info)}\n`);
  });
  const stop = () => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.stdin.resume();
  process.stdin.on('end', stop);
  process.on('SIGTERM', stop);
}

start();
