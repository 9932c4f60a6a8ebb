// The embedded adapter's routing of ledger account events (src/chain/adapters/account-routes.ts):
// each subscription hears exactly what one emitter listener per subscription heard, through one
// ledger listener; a failing listener neither stops the others nor goes unreported.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import type { StoredAccount } from '@pmx/local-cluster';
import { AccountRoutes, type AccountEvent } from '../../src/chain/adapters/account-routes.js';

const TOKEN = 'TokenkegQfeZyiNwAJbNbGhPfXfpNzA3J8jWbzT9yQRAMg';
const key = () => Keypair.generate().publicKey;

function tokenAccount(mint: Uint8Array, size = 165): StoredAccount {
  const data = new Uint8Array(size);
  data.set(mint, 0);
  return { owner: TOKEN, lamports: 2_039_280n, data, executable: false };
}

function routes() {
  const events = new EventEmitter();
  const r = new AccountRoutes((fn) => {
    events.on('account', fn);
    return () => events.off('account', fn);
  });
  const emit = (address: string, account: StoredAccount | null, slot = 7) =>
    events.emit('account', { address, account, slot } as AccountEvent);
  return { r, events, emit };
}

describe('account event routes', () => {
  it('delivers by address, by program, and by the mint a token subscription pins, with its filters', () => {
    const { r, emit } = routes();
    const [mintA, mintB, watched] = [key(), key(), key().toBase58()];
    const heard: string[] = [];
    r.account(watched, (a, acc, slot) => heard.push(`account ${a} ${acc.lamports} ${slot}`));
    const onMint = (name: string, mint: Uint8Array) =>
      r.program(TOKEN, [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: mint } }], (a) => heard.push(`${name} ${a}`));
    onMint('A', mintA.toBytes());
    onMint('B', mintB.toBytes());
    r.program(TOKEN, [{ dataSize: 82 }], (a) => heard.push(`mints ${a}`));
    r.program(TOKEN, [{ memcmp: { offset: 32, bytes: mintB.toBytes() } }], (a) => heard.push(`owner-B ${a}`));

    emit('x1', tokenAccount(mintA.toBytes()));
    emit('x2', tokenAccount(mintB.toBytes()));
    emit('x3', tokenAccount(mintA.toBytes(), 170)); // pinned mint, wrong size
    emit('x4', { ...tokenAccount(mintA.toBytes()), owner: key().toBase58() }); // another program's account
    emit('x5', { owner: TOKEN, lamports: 1n, data: new Uint8Array(82), executable: false });
    const ownedByB = tokenAccount(key().toBytes());
    ownedByB.data.set(mintB.toBytes(), 32);
    emit('x6', ownedByB);
    emit(watched, { owner: key().toBase58(), lamports: 5n, data: new Uint8Array(0), executable: false });
    emit(watched, null); // closed: no one hears it
    emit('x1', null);
    expect(heard).toEqual(['A x1', 'B x2', 'mints x5', 'owner-B x6', `account ${watched} 5 7`]);
  });

  it('holds one ledger listener while anything is subscribed, and applies changes made during an event from the next one', () => {
    const { r, events, emit } = routes();
    const mint = key().toBytes();
    const heard: string[] = [];
    const filters = [{ memcmp: { offset: 0, bytes: mint } }];
    let late: (() => void) | undefined;
    const offFirst = r.program(TOKEN, filters, (a) => {
      heard.push(`first ${a}`);
      late ??= r.program(TOKEN, filters, (b) => heard.push(`late ${b}`));
      offSecond(); // still hears this event, as an emitter's listener removed mid-emit does
    });
    const offSecond = r.program(TOKEN, filters, (a) => heard.push(`second ${a}`));
    expect(events.listenerCount('account')).toBe(1);
    emit('e1', tokenAccount(mint));
    emit('e2', tokenAccount(mint));
    expect(heard).toEqual(['first e1', 'second e1', 'first e2', 'late e2']);
    offFirst();
    offFirst(); // twice: no effect
    expect(events.listenerCount('account')).toBe(1);
    late!();
    expect(events.listenerCount('account')).toBe(0);
    emit('e3', tokenAccount(mint));
    expect(heard).toHaveLength(4);
  });

  it('delivers to every listener when some fail, then reports every failure', () => {
    const { r, emit } = routes();
    const mint = key().toBytes();
    const heard: string[] = [];
    r.program(TOKEN, [], () => {
      throw new Error('one');
    });
    r.program(TOKEN, [], (a) => heard.push(a));
    expect(() => emit('f1', tokenAccount(mint))).toThrow('one');
    expect(heard).toEqual(['f1']);
    r.account('f2', () => {
      throw new Error('two');
    });
    let thrown: unknown;
    try {
      emit('f2', tokenAccount(mint));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors.map((e: Error) => e.message)).toEqual(['two', 'one']);
    expect(heard).toEqual(['f1', 'f2']);
  });
});
