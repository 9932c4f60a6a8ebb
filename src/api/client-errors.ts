/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers over the size limit,
 * a malformed request line, a request that timed out): answered in the envelope of the family
 * the request line names, like every other error, instead of Fastify's bare default body.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { errorEnvelope } from './envelopes.js';
import { familyOf } from './families.js';

const BY_CODE: Record<string, { status: number; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'HEADERS_TOO_LARGE', message: 'Request headers (or the URL) exceed the 16 KiB limit' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' },
};
const MALFORMED = { status: 400, code: 'BAD_REQUEST', message: 'Malformed HTTP request' };

/** The path of the request line in what the parser had read, if any (latin1: never throws). */
function requestPath(raw: unknown): string {
  if (!Buffer.isBuffer(raw)) return '/';
  const line = raw.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? '';
  return line.split(' ')[1] ?? '/';
}

export function clientErrorHandler(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = BY_CODE[err.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify(errorEnvelope(familyOf(requestPath(err.rawPacket)), { code, message }));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
