/**
 * Kysely's SQLite dialect, with every statement preceded by `turnSlice()` (src/infra/time-slice.ts).
 * better-sqlite3 runs each statement synchronously inside an async call, so a loop of awaited
 * queries never let the event loop in: a keeper's pass over two thousand fills held /health for
 * over a second in the single-process daemon. With the slice, a chain of statements yields a turn
 * every 5 ms. Yielding inside a transaction is safe: the driver's connection mutex stays held, so
 * other queries wait for the transaction, while HTTP requests and timers run.
 */
import { SqliteDialect, type DatabaseConnection, type Driver } from 'kysely';
import { turnSlice } from '../src/infra/time-slice.js';

export class SlicedSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
    driver.acquireConnection = async () => {
      const connection = await acquire();
      let sliced = wrapped.get(connection);
      if (!sliced) wrapped.set(connection, (sliced = slicedConnection(connection)));
      return sliced;
    };
    return driver;
  }
}

function slicedConnection(inner: DatabaseConnection): DatabaseConnection {
  return {
    async executeQuery(query) {
      const turn = turnSlice();
      if (turn) await turn;
      return inner.executeQuery(query);
    },
    streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
  };
}
