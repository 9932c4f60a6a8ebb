/**
 * `nestLogs` (inner-runner.ts) re-nests an internal run's `invoke [n]` lines under the calling
 * program without a regex per line: the same output as the replace it took over, on lines built
 * from the pieces that matter (the marker, digits, brackets, other text, a line break) and on
 * the log lines of a real run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestLogs } from '../src/inner-runner.js';

const byRegex = (line: string, extra: number) => line.replace(/ invoke \[(\d+)\]$/, (_m, d: string) => ` invoke [${Number(d) + extra}]`);

const piece = fc.constantFrom(
  ' invoke [',
  'invoke',
  '[',
  ']',
  ' ',
  '0',
  '1',
  '9',
  '00',
  '12345678901234567890',
  'x',
  '\n',
  '١',
  'Program ',
);
const line = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));

describe('nestLogs', () => {
  it("answers the regex's replace on any line", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 5 }), fc.integer({ min: 1, max: 3 }), (lines, extra) => {
        expect(nestLogs(lines, extra)).toEqual(lines.map((l) => byRegex(l, extra)));
      }),
      { numRuns: 5000 },
    );
  });

  it('nests a run’s logs one level down and leaves the rest', () => {
    const logs = [
      'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [1]',
      'Program log: Instruction: Transfer',
      'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA consumed 76 of 602850 compute units',
      'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA success',
    ];
    expect(nestLogs(logs, 1)).toEqual(['Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [2]', ...logs.slice(1)]);
    expect(nestLogs(logs, 0)).toBe(logs);
  });
});
