/** The statements a Kysely instance runs, captured by a plugin: for tests that count them or explain their plans. */
import type { Kysely, KyselyPlugin, RootOperationNode } from 'kysely';
import type { Database } from '../../db/schema.js';

export class StatementCapture implements KyselyPlugin {
  nodes: RootOperationNode[] = [];
  transformQuery({ node }: { node: RootOperationNode }) {
    this.nodes.push(node);
    return node;
  }
  async transformResult<R>({ result }: { result: R }) {
    return result;
  }
}

/** `db` with a capture on it, and how many statements it ran so far. */
export function counting(db: Kysely<Database>): { db: Kysely<Database>; count: () => number } {
  const capture = new StatementCapture();
  return { db: db.withPlugin(capture), count: () => capture.nodes.length };
}
