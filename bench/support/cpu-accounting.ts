/**
 * Who used the machine's CPU during a bench's load window, read from Linux's /proc: per process
 * (a pid, or every process with a given command name, such as all of PostgreSQL's backends) and
 * the machine as a whole. It turns "the ratio is low" into "each order costs this many CPU
 * microseconds in each party, so the machine can do at most this many": the evidence behind a
 * target that a 2-core machine cannot reach. Linux only; elsewhere every reading is null.
 */
import fs from 'node:fs';
import os from 'node:os';

/** USER_HZ: /proc reports times in clock ticks of 1/100 s on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

export type Party = { name: string; pid: number } | { name: string; command: string } | { name: string; self: true };

interface Reading {
  /** CPU seconds per party (null: not readable). */
  parties: Map<string, number | null>;
  /** Whole machine: busy and total CPU seconds since boot. */
  machine: { busy: number; total: number } | null;
}

/** utime + stime (+ children's, reaped) of one process, in seconds; null when it is gone or /proc is missing. */
function processSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // fields 14 and 15: utime, stime
    return ticks / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Total CPU seconds of every process whose command name is `command` (e.g. all `postgres` backends alive now). */
function commandSeconds(command: string): number | null {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of pids) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== command) continue;
    } catch {
      continue; // exited while we read
    }
    total += processSeconds(Number(pid)) ?? 0;
  }
  return total;
}

function machineSeconds(): { busy: number; total: number } | null {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0); // user nice system idle iowait irq softirq steal
    const idle = cpu[3]! + cpu[4]!;
    return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

function read(parties: Party[]): Reading {
  const values = new Map<string, number | null>();
  for (const party of parties) {
    if ('self' in party) {
      const used = process.cpuUsage();
      values.set(party.name, (used.user + used.system) / 1e6);
    } else values.set(party.name, 'pid' in party ? processSeconds(party.pid) : commandSeconds(party.command));
  }
  return { parties: values, machine: machineSeconds() };
}

export interface CpuWindow {
  /** Ends the window: CPU µs per unit of work per party, and the machine's busy share. */
  end(units: number): CpuReport;
}

export interface CpuReport {
  perUnitUs: Map<string, number | null>;
  /** Sum over the parties that could be read. */
  totalPerUnitUs: number;
  /** Busy CPU seconds ÷ (wall seconds × cores), over the window. */
  machineBusy: number | null;
  cores: number;
  /** The rate the machine could reach if every core were busy with this work: cores ÷ total CPU per unit. */
  ceilingPerSecond: number;
}

/**
 * Starts a window. Command-name parties are summed over the processes alive at each reading:
 * a backend that starts and exits inside the window is missed (PostgreSQL's pooled connections
 * live through a bench).
 */
export function startCpuWindow(parties: Party[]): CpuWindow {
  const before = read(parties);
  return {
    end(units) {
      const after = read(parties);
      const perUnitUs = new Map<string, number | null>();
      let total = 0;
      for (const party of parties) {
        const a = before.parties.get(party.name);
        const b = after.parties.get(party.name);
        const us = a == null || b == null ? null : ((b - a) * 1e6) / units;
        perUnitUs.set(party.name, us);
        total += us ?? 0;
      }
      const cores = os.availableParallelism();
      const m0 = before.machine;
      const m1 = after.machine;
      const machineBusy = m0 && m1 ? (m1.busy - m0.busy) / (m1.total - m0.total) : null;
      return { perUnitUs, totalPerUnitUs: total, machineBusy, cores, ceilingPerSecond: total > 0 ? (cores * 1e6) / total : Infinity };
    },
  };
}

/** One line per party and a summary, for a bench's output. */
export function describeCpu(report: CpuReport, unit: string): string[] {
  const parts = [...report.perUnitUs].map(([name, us]) => `${name} ${us === null ? 'n/a' : `${Math.round(us)} µs`}`);
  return [
    `  CPU per ${unit}: ${parts.join(', ')}; total ${Math.round(report.totalPerUnitUs)} µs`,
    `  machine busy ${report.machineBusy === null ? 'n/a' : `${Math.round(report.machineBusy * 100)} %`} of ${report.cores} cores; ` +
      `at every core busy this work could reach ${Math.round(report.ceilingPerSecond)} ${unit}s/s`,
  ];
}
