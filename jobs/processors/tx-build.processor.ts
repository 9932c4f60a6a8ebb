/**
 * Runs a registered transaction builder and turns a DomainError into a result value so that the
 * waiting HTTP request can answer with it (see jobs/tx-build.client.ts).
 */
import { isDomainError } from '../../src/domain/errors.js';
import type { Logger } from 'pino';
import type { JobPayload } from '../catalog.js';
import type { Processor } from '../processor.js';
import type { TxBuildOutcome } from '../tx-build.client.js';

/**
 * A registered builder as the worker sees it. Its parameters were type-checked where the job was
 * enqueued (`TxBuildPort.request` against the catalog of src/services/tx-build/tx-build.port.ts),
 * so the worker hands the payload's params over as they are.
 */
export type TxBuilder = (params: never) => Promise<unknown>;
export type TxBuilderRegistry = ReadonlyMap<string, TxBuilder>;

/** One build: the builder's value, its refusal as a value, or a throw when it crashed. */
export async function runTxBuild(builders: TxBuilderRegistry, { kind, params }: JobPayload<'tx.build'>, log: Logger): Promise<TxBuildOutcome> {
  const builder = builders.get(kind);
  if (!builder) {
    return { ok: false, error: { kind: 'invalid', code: 'UNKNOWN_BUILDER', message: `No transaction builder named ${kind}`, extra: {} } };
  }
  try {
    return { ok: true, value: await (builder as (p: unknown) => Promise<unknown>)(params) };
  } catch (error) {
    if (isDomainError(error)) return { ok: false, error: error.toJSON() };
    log.error({ err: error, kind }, 'transaction builder crashed');
    throw error;
  }
}

export function txBuildProcessor(builders: TxBuilderRegistry): Processor<'tx.build'> {
  return async (payload, _job, log): Promise<TxBuildOutcome> => runTxBuild(builders, payload, log);
}
