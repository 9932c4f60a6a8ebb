/**
 * Request validation with two Ajv instances. Bodies are JSON, so a wrong type is the client's
 * error and answers 400: `wallet: ["<pk>"]`, `title: 5` or `amount: "1000000"` are never
 * silently converted. Query strings and path parameters are text by nature, so their schemas
 * coerce (`?limit=20` is the integer 20); where a spelling matters (market ids), the schema
 * pins the canonical form with a pattern.
 */
import { Ajv, type Options } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS with its function on `default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;

function ajv(coerceTypes: Options['coerceTypes']): Ajv {
  // strict: false, as Fastify's own compiler: TypeBox schemas carry annotation keywords Ajv does not know.
  const instance = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(instance);
  return instance;
}

export function installValidators(app: FastifyInstance): void {
  const forBodies = ajv(false);
  const forText = ajv('array');
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? forBodies : forText).compile(schema));
}
