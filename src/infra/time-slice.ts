/**
 * Cooperative time slicing for long loops on the event loop: `await slice()` returns at once
 * while the current slice is young and yields a full turn of the event loop (setImmediate, so
 * I/O callbacks run: waiting requests are answered) once it has run `sliceMs`. An `await` on a
 * resolved promise alone never lets I/O in: a loop of awaits is one long block.
 */
export type Slicer = () => Promise<void> | undefined;

export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function timeSlicer(sliceMs = 5): Slicer {
  let start = performance.now();
  return () => {
    if (performance.now() - start < sliceMs) return undefined;
    return yieldToEventLoop().then(() => {
      start = performance.now();
    });
  };
}

const TURN_MS = 5;
let turnStart = 0;
let inTurn = false;

/**
 * One slicer for every synchronous call the process makes on its event loop (SQLite statements,
 * the embedded ledger's transactions): `await turnSlice()` before each returns at once until
 * 5 ms have passed since the first such call of this turn, then yields a turn (setImmediate) so
 * that waiting I/O — an HTTP request, a heartbeat — is served. A job awaiting thousands of
 * SQLite statements in a loop was one block of up to seconds (each await of a settled promise
 * stays in the same turn); now no chain of them holds the loop much past 5 ms.
 */
export function turnSlice(): Promise<void> | undefined {
  const now = performance.now();
  if (!inTurn) {
    inTurn = true;
    turnStart = now;
    setImmediate(() => {
      inTurn = false; // runs before any yield queued after it: the next call starts a new turn
    });
    return undefined;
  }
  return now - turnStart < TURN_MS ? undefined : yieldToEventLoop();
}
