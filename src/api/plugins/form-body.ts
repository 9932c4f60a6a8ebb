/**
 * HTML forms post application/x-www-form-urlencoded, which Fastify does not parse by default (415).
 * Admin pages with forms add this parser to their own plugin scope, so JSON APIs elsewhere keep
 * refusing form bodies.
 */
import type { FastifyInstance } from 'fastify';

/** Parses a urlencoded body into a plain object of strings (the last value of a repeated key wins). */
export function addFormBodyParser(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}
