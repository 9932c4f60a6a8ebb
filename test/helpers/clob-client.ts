/**
 * A Family C client for process tests, as a bot would write one: fetch for the API, web3.js for
 * the cluster's JSON-RPC (sign the returned v0 transactions, send, confirm). Keys stay here.
 */
import { Connection, Keypair, VersionedTransaction } from '@solana/web3.js';
import { signedOrder, type OrderSpec } from './clob-orders.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export class ClobClient {
  private connection?: Connection;

  constructor(
    readonly url: string,
    readonly adminToken?: string,
  ) {}

  async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: Json }> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  async ok(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> {
    const r = await this.call(method, path, body, headers);
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  }

  async rpc(): Promise<Connection> {
    this.connection ??= new Connection((await this.ok('GET', '/v2/config')).data.rpcUrl as string, 'confirmed');
    return this.connection;
  }

  /** Lists a market as the operator: `title`, a day to run, placeholder text and tickers, then `fields`. */
  async createMarket(title: string, fields: Json = {}): Promise<Json> {
    const body = {
      title,
      description: 'x',
      resolutionRules: 'x',
      category: 'test',
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      yesTicker: 'Y',
      noTicker: 'N',
      ...fields,
    };
    return (await this.ok('POST', '/v2/admin/clob/markets', body, { authorization: `Bearer ${this.adminToken}` })).market;
  }

  async faucet(wallet: Keypair, usdcRaw: bigint): Promise<void> {
    await this.ok('POST', '/v2/dev/faucet', { wallet: wallet.publicKey.toBase58(), usdc: usdcRaw.toString(), sol: '2000000000' });
  }

  async signAndSend(base64: string, signer: Keypair): Promise<string> {
    const connection = await this.rpc();
    const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
    tx.sign([signer]);
    const signature = await connection.sendRawTransaction(tx.serialize());
    // Polling, not confirmTransaction's PubSub subscription: a client of a daemon that gets killed
    // would otherwise keep reconnecting its WebSocket to the dead cluster.
    const status = await this.waitFor(`confirmation of ${signature}`, async () => {
      const [s] = (await connection.getSignatureStatuses([signature])).value;
      return s && s.confirmationStatus !== 'processed' ? s : undefined;
    });
    if (status.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(status.err)}`);
    return signature;
  }

  /** POSTs a Family C write, signs and lands the transaction. */
  async write(path: string, body: Json, signer: Keypair): Promise<Json> {
    const r = await this.ok('POST', path, body);
    await this.signAndSend(r.transaction as string, signer);
    return r;
  }

  async waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async balances(owner: Keypair): Promise<Json> {
    return this.ok('GET', `/v2/clob/account/balances?pubkey=${owner.publicKey.toBase58()}`);
  }

  /** Faucet, deposit, and wait until the smart wallet shows the deposit. */
  async fundedTrader(depositRaw: bigint): Promise<Keypair> {
    const t = Keypair.generate();
    await this.faucet(t, depositRaw + 10_000_000n);
    await this.write('/v2/clob/account/deposit', { pubkey: t.publicKey.toBase58(), amount: depositRaw.toString() }, t);
    await this.waitFor('deposit indexed', async () =>
      (await this.balances(t)).smartWalletBalance === depositRaw.toString() ? true : undefined,
    );
    return t;
  }

  place(owner: Keypair, spec: OrderSpec): Promise<{ status: number; json: Json }> {
    return this.call('POST', '/v2/clob/orders', signedOrder(owner, spec));
  }
}
