import { describe, expect, it } from 'vitest';
import { describeCpu, startCpuWindow } from '../../bench/support/cpu-accounting.js';

/** Busy-waits for `ms` of wall time on this thread. */
function burn(ms: number): void {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  if (x < 0) throw new Error('unreachable');
}

// Linux's /proc is read (the CI machines and every supported host are Linux).
describe('bench CPU accounting', () => {
  it('charges this process for the CPU it burned and divides by the units of work', () => {
    const window = startCpuWindow([
      { name: 'bench', self: true },
      { name: 'this pid', pid: process.pid },
      { name: 'gone', pid: 2 ** 22 + 17 }, // above Linux's pid_max: never a live process
    ]);
    burn(300);
    const report = window.end(100);
    // 300 ms of one thread's CPU over 100 units ≈ 3,000 µs each; the clock tick is 10 ms and the
    // machine may deschedule us, so only the order of magnitude is checked.
    const self = report.perUnitUs.get('bench')!;
    const byPid = report.perUnitUs.get('this pid')!;
    expect(self).toBeGreaterThan(1_000);
    expect(self).toBeLessThan(10_000);
    expect(byPid).toBeGreaterThan(1_000);
    expect(report.perUnitUs.get('gone')).toBeNull();
    expect(report.totalPerUnitUs).toBeCloseTo(self + byPid, 6);
    expect(report.machineBusy).toBeGreaterThan(0);
    expect(report.machineBusy).toBeLessThanOrEqual(1);
    expect(report.ceilingPerSecond).toBeCloseTo((report.cores * 1e6) / report.totalPerUnitUs, 6);
    const lines = describeCpu(report, 'order');
    expect(lines[0]).toMatch(/^ {2}CPU per order: bench \d+ µs, this pid \d+ µs, gone n\/a; total \d+ µs$/);
  });

  it('sums every process with a command name (none: zero)', () => {
    const report = startCpuWindow([{ name: 'nobody', command: 'no-such-command-pmx' }]).end(1);
    expect(report.perUnitUs.get('nobody')).toBe(0);
    expect(report.ceilingPerSecond).toBe(Infinity);
  });
});
