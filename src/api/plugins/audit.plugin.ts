/**
 * Records every state-changing admin request in the audit log (src/services/operator-audit.service.ts):
 * any method but GET, HEAD and OPTIONS under /v2/admin/ and /admin/ (the console's forms and the job
 * dashboard's API) from an authenticated operator. The row is written before the handler runs, so
 * an action the process dies in shows as `pending`; it is completed with the status (and the
 * error code of a refusal) just before the answer is sent. Login and logout are not operator actions.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OnSendPart, PreHandlerPart } from '../hook-pairs.js';
import type { AuditLog } from '../../services/operator-audit.service.js';
import { callerLabel } from './admin-auth.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NOT_ACTIONS = new Set(['/admin/login', '/admin/logout']);
const MAX_PARAMS = 2_000;
const AUDIT_ID = Symbol('auditId');

type Audited = FastifyRequest & { [AUDIT_ID]?: string };

function isOperatorAction(request: FastifyRequest): boolean {
  if (READS.has(request.method)) return false;
  // The route the router matched (it decodes `/v2/%61dmin/…`), else the URL as sent (a 404).
  const path = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? '';
  if (NOT_ACTIONS.has(path)) return false;
  return path.startsWith('/v2/admin/') || path.startsWith('/admin/');
}

function target(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  return Object.entries(params as Record<string, unknown>)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > MAX_PARAMS ? `${text.slice(0, MAX_PARAMS)}…` : text;
}

/** The audit's preHandler and onSend, which buildApp runs as parts of its single hooks (hook-pairs.ts). */
export function auditHooks(audit: AuditLog): { preHandler: PreHandlerPart; onSend: OnSendPart } {
  const begin = async (request: Audited, caller: string) => {
    request[AUDIT_ID] = await audit.begin({
      action: `${request.method} ${request.routeOptions.url ?? request.url.split('?', 1)[0]}`,
      target: target(request.params),
      params: bodyText(request.body),
      caller,
      address: request.ip,
    });
  };
  const end = async (request: Audited, reply: FastifyReply, payload: unknown, id: string) => {
    const code = reply.statusCode < 400 ? undefined : errorCode(payload);
    const result = reply.statusCode < 400 ? 'ok' : `error ${reply.statusCode}${code ? ` ${code}` : ''}`;
    await audit.end(id, reply.statusCode, result).catch((err: Error) => request.log.error({ err, auditId: id }, 'audit row not completed'));
  };
  // Every request passes both hooks: synchronous unless there is a row to write, so no promise per request.
  const preHandler: PreHandlerPart = (request: Audited, _reply, done) => {
    const caller = isOperatorAction(request) ? callerLabel(request) : undefined;
    if (!caller) return done(); // not an action, or not an operator's request: refused before it got here
    begin(request, caller).then(() => done(), done);
  };
  // Completed before the answer leaves (onSend), so that a client that saw the answer finds the row complete.
  const onSend: OnSendPart = (request: Audited, reply: FastifyReply, payload, done) => {
    const id = request[AUDIT_ID];
    if (!id) return done(null, payload);
    request[AUDIT_ID] = undefined;
    end(request, reply, payload, id).then(() => done(null, payload), done);
  };
  return { preHandler, onSend };
}

/** The envelope's error code of a refusal (`NOT_FOUND`), when the payload is one. */
function errorCode(payload: unknown): string | undefined {
  if (typeof payload !== 'string' || payload.length > 10_000) return undefined;
  try {
    const error = (JSON.parse(payload) as { error?: unknown }).error;
    const code = typeof error === 'string' ? error : (error as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}
