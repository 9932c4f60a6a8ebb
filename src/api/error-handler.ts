/**
 * Every error leaves in the envelope of the route's family: domain errors with their status,
 * Fastify's own client errors (schema validation, malformed JSON, body too large, 429) as 4xx,
 * chain failures that retrying can cure (rate limit, node down, timeout, expired blockhash) as
 * 503 NODE_UNAVAILABLE, parameters the node refused as 400, the chain's non-retryable verdicts on
 * the request (account not found, program or transaction refusals) as 4xx `CHAIN_<code>`, unknown
 * routes as 404, other chain errors as 502 NODE_ERROR, anything unexpected as a masked 500 logged
 * with the request id.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ChainError } from '../chain/chain-errors.js';
import { isDomainError, type ErrorKind } from '../domain/errors.js';
import { errorEnvelope } from './envelopes.js';
import { familyOf } from './families.js';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  rate_limited: 429,
  unavailable: 503,
};

const CODE_BY_STATUS: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  extra?: Record<string, unknown>,
) {
  return reply.status(status).send(errorEnvelope(familyOf(request.url), { code, message, extra }));
}

function validationMessage(error: FastifyError): string {
  const context = error.validationContext ?? 'request';
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = `${context}${first.instancePath ?? ''}`.replace(/\//g, '.');
  const missing = (first.params as { missingProperty?: string } | undefined)?.missingProperty;
  return missing ? `${context}.${missing} is required` : `${where} ${first.message ?? 'is invalid'}`;
}

/** Non-retryable chain verdicts about the request itself, answered as 4xx (the rest of the non-retryable ones: 502). */
const CHAIN_REFUSALS: Partial<Record<ChainError['code'], { status: number; what: string }>> = {
  ACCOUNT_NOT_FOUND: { status: 404, what: 'an account it needs does not exist' },
  PROGRAM_ERROR: { status: 400, what: 'a program refused the transaction' },
  INVALID_TRANSACTION: { status: 400, what: 'the transaction is malformed' },
  SIGNATURE_VERIFICATION_FAILED: { status: 400, what: 'a signature does not verify' },
  INSUFFICIENT_FUNDS: { status: 400, what: 'an account cannot pay for it' },
  ALREADY_PROCESSED: { status: 409, what: 'the transaction was processed already' },
};

/** Seconds a client is told to wait after a chain failure that retrying can cure. */
const CHAIN_RETRY_AFTER_SEC = 2;

/**
 * src/api may import the chain layer's types only (eslint boundaries), so a ChainError is
 * recognised by its name and fields rather than with instanceof.
 */
function asChainError(error: unknown): ChainError | undefined {
  if (!(error instanceof Error) || error.name !== 'ChainError') return undefined;
  const e = error as Partial<ChainError>;
  return typeof e.code === 'string' && typeof e.retryable === 'boolean' ? (e as ChainError) : undefined;
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDomainError(error)) {
      reply.headers(error.headers);
      return send(request, reply, STATUS_BY_KIND[error.kind], error.code, error.message, error.extra);
    }
    if (error.validation) return send(request, reply, 400, 'VALIDATION_ERROR', validationMessage(error));
    const chain = asChainError(error);
    if (chain?.retryable) {
      // The node's message can carry its URL (with an API key): logged, not echoed.
      request.log.warn({ err: error }, 'chain unavailable');
      reply.header('retry-after', String(CHAIN_RETRY_AFTER_SEC));
      return send(request, reply, 503, 'NODE_UNAVAILABLE', `The Solana node is unavailable (${chain.code}); try again shortly`);
    }
    if (chain?.code === 'INVALID_PARAMS')
      return send(
        request,
        reply,
        400,
        'VALIDATION_ERROR',
        "The Solana node refused the request's parameters (a malformed address or signature)",
      );
    const refused = chain && CHAIN_REFUSALS[chain.code];
    if (chain && refused) {
      // Not retryable and about this request (an account that is not there, a transaction the
      // program refuses): a 4xx naming the chain's code; the node's message is logged, not echoed.
      request.log.info({ err: error }, 'chain refused the request');
      return send(
        request,
        reply,
        refused.status,
        `CHAIN_${chain.code}`,
        `The Solana cluster refused this request: ${refused.what} (${chain.code})`,
      );
    }
    if (chain) {
      // The node answered, with an error this service does not expect on that path: the
      // upstream's failure (502), not ours; its message is logged, never echoed.
      request.log.error({ err: error }, 'chain error');
      return send(request, reply, 502, 'NODE_ERROR', `The Solana node answered with an error (${chain.code}); request ${request.id}`);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = CODE_BY_STATUS[status] ?? 'BAD_REQUEST';
      const message = status === 400 && /JSON/i.test(error.message) ? `Malformed JSON body: ${error.message}` : error.message;
      return send(request, reply, status, code, message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(request, reply, 500, 'INTERNAL_ERROR', `Internal server error (request ${request.id})`);
  });
}

/**
 * Errors Fastify raises before routing (a path that is not valid UTF-8 once percent-decoded,
 * `%ED%A0%80` a lone surrogate; a path parameter past its length limit): 400 in the family's
 * envelope, as the error handler would answer them after routing.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const why =
    error.code === 'FST_ERR_BAD_URL'
      ? 'is not valid UTF-8 once percent-decoded (a broken escape or a lone surrogate)'
      : `is not valid (${error.code ?? error.message})`;
  void send(request, reply, 400, 'VALIDATION_ERROR', `The request path ${why}`);
}

/** Unknown routes: 404 in the envelope of the family the path's prefix belongs to. */
export async function notFoundHandler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const path = request.url.split('?', 1)[0] ?? '';
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path; // never echo a 16 KiB URL back
  return send(request, reply, 404, 'NOT_FOUND', `No route ${request.method} ${shown}`);
}
