/**
 * The baselines of bench/http-table, in a process of their own (as the daemon is): a bare
 * Fastify 5 app answering each HTTP row's exact bytes, and a bare node:http server answering each
 * JSON-RPC row's exact bytes after reading the request body. Nothing else runs in this process,
 * so a ratio against it is the share of the HTTP ceiling the daemon keeps. The HTTP rows' floor
 * (floor-app.ts) listens here too, measured apart from the bare app (never at the same time).
 *
 * Reads `{ http: BareReply[], rpc: BareReply[] }` as one JSON line on stdin; prints `{ fastify, rpc }` (the two
 * base URLs, and `floor`) as one JSON line on stdout; exits when stdin closes or on SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { startFloor } from './floor-app.js';

export interface BareReply {
  /** Path the bench requests on the bare server (e.g. `/r3`). */
  path: string;
  method: 'GET' | 'POST';
  status: number;
  contentType: string;
  body: string;
  /** JSON-RPC: the answer by the request's method (the body is parsed, as any JSON-RPC server must); `body` otherwise. */
  byMethod?: Record<string, string>;
}

/** The spec is the first line on stdin; the process lives until stdin closes. */
function main(): void {
  let input = '';
  let started = false;
  process.stdin.on('data', (c: Buffer) => {
    input += c.toString('utf8');
    const end = input.indexOf('\n');
    if (end >= 0 && !started) {
      started = true;
      void start(JSON.parse(input.slice(0, end)) as { http: BareReply[]; rpc: BareReply[] });
    }
  });
  process.stdin.on('end', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}

async function start(spec: { http: BareReply[]; rpc: BareReply[] }): Promise<void> {
  const app = Fastify({ logger: false });
  for (const r of spec.http) {
    app.route({ method: r.method, url: r.path, handler: async (_req, reply) => reply.status(r.status).type(r.contentType).send(r.body) });
  }
  const fastifyUrl = await app.listen({ host: '127.0.0.1', port: 0 });

  const rpcByPath = new Map(spec.rpc.map((r) => [r.path, r]));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = rpcByPath.get(req.url ?? '');
      const method = r?.byMethod ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method?: string }).method : undefined;
      const body = (method !== undefined ? r?.byMethod?.[method] : undefined) ?? r?.body ?? '';
      res.writeHead(r?.status ?? 404, { 'content-type': r?.contentType ?? 'text/plain', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const floorUrl = await startFloor(spec.http);
  process.stdout.write(`${JSON.stringify({ fastify: fastifyUrl, rpc: rpcUrl, floor: floorUrl })}\n`);
}

main();
