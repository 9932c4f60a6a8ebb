import { describe, expect, it } from 'vitest';
import { describeCpu, startCpuWindow } from '../../bench/support/cpu-accounting.js';

/**
 * Burns `ms` of this process's CPU time (not wall time: under a loaded machine a wall-clock burn
 * may get a fraction of a core).
 */
function burnCpu(ms: number): void {
  const start = process.cpuUsage();
  let x = 0;
  for (;;) {
    for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + i);
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) break;
  }
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
    burnCpu(300);
    const report = window.end(100);
    // At least 300 ms of CPU over 100 units: ≥ 3,000 µs each. /proc counts in 10 ms ticks, and
    // the process's other threads (the collector, vitest's) add their share, so only bounds.
    const self = report.perUnitUs.get('bench')!;
    const byPid = report.perUnitUs.get('this pid')!;
    expect(self).toBeGreaterThanOrEqual(3_000);
    expect(self).toBeLessThan(30_000);
    expect(byPid).toBeGreaterThanOrEqual(2_800);
    expect(report.perUnitUs.get('gone')).toBeNull();
    expect(report.totalPerUnitUs).toBeCloseTo(self + byPid, 6);
    expect(report.machineBusy).toBeGreaterThan(0);
    // A fraction of /proc/stat's counters: 1 on a fully busy machine, give or take float rounding
    // (it read 1.0000000000011 once, under CI's load).
    expect(report.machineBusy).toBeLessThanOrEqual(1 + 1e-9);
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
