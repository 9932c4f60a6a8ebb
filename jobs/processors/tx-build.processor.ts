/**
 * Runs a registered transaction builder and turns a DomainError into a result value so that the
 * waiting HTTP request can answer with it (see jobs/tx-build.client.ts).
 */
import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { isDomainError } from '../../src/domain/errors.js';
import type { Logger } from 'pino';
import type { JobPayload } from '../catalog.js';
import type { Processor } from '../processor.js';
import type { TxBuildOutcome } from '../tx-build.client.js';

/**
 * A builder as the worker sees it: a function of its parameter object, whose type lives in the
 * typed catalog of src/services/tx-build/tx-build.port.ts. The worker checks the parameters
 * against the kind's schema before it calls the builder.
 */
export type TxBuilder = (params: never) => Promise<unknown>;
interface RegisteredTxBuilder {
  /** The kind's parameter schema, compiled (a check costs ~1 µs, not the ~50 of Value.Check). */
  params: Validator;
  build: TxBuilder;
}
export type TxBuilderRegistry = ReadonlyMap<string, RegisteredTxBuilder>;

/** Pairs every builder with its parameter schema; throws at boot when a builder has none. */
export function txBuilderRegistry(
  builders: Iterable<readonly [string, TxBuilder]>,
  schemas: Readonly<Record<string, TSchema>>,
): TxBuilderRegistry {
  const registry = new Map<string, RegisteredTxBuilder>();
  const unschemed: string[] = [];
  for (const [kind, build] of builders) {
    const schema = schemas[kind];
    if (schema) registry.set(kind, { params: Compile(schema), build });
    else unschemed.push(kind);
  }
  if (unschemed.length > 0) throw new Error(`transaction builders without a parameter schema: ${unschemed.join(', ')}`);
  return registry;
}

/** One build: the builder's value, its refusal as a value, or a throw when it crashed. */
export async function runTxBuild(
  builders: TxBuilderRegistry,
  { kind, params }: JobPayload<'tx.build'>,
  log: Logger,
): Promise<TxBuildOutcome> {
  const builder = builders.get(kind);
  if (!builder) {
    return { ok: false, error: { kind: 'invalid', code: 'UNKNOWN_BUILDER', message: `No transaction builder named ${kind}`, extra: {} } };
  }
  if (!builder.params.Check(params)) {
    const first = builder.params.Errors(params)[0];
    const why = first ? `${first.instancePath || '/'} ${first.message}` : 'schema mismatch';
    return { ok: false, error: { kind: 'invalid', code: 'INVALID_JOB', message: `malformed parameters for ${kind}: ${why}`, extra: {} } };
  }
  try {
    // The parameters match the kind's schema, and the builder takes Static of that schema.
    return { ok: true, value: await (builder.build as (p: unknown) => Promise<unknown>)(params) };
  } catch (error) {
    if (isDomainError(error)) return { ok: false, error: error.toJSON() };
    log.error({ err: error, kind }, 'transaction builder crashed');
    throw error;
  }
}

export function txBuildProcessor(builders: TxBuilderRegistry): Processor<'tx.build'> {
  return async (payload, _job, log): Promise<TxBuildOutcome> => runTxBuild(builders, payload, log);
}
