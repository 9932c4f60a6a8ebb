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
