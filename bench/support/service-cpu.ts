/**
 * @module bench/support/service-cpu
 * CPU seconds the service spends during one job, by process role (workerd, media service,
 * ffmpeg, vision workers, …), sampled from /proc/<pid>/stat. A process that ends between two
 * samples loses at most one interval of its CPU; the table says so.
 */
import { readFileSync } from 'node:fs';
import { serviceProcesses } from './service-procs.js';

/** Linux's USER_HZ: /proc times are in 1/100 s on every kernel this runs on. */
const TICKS_PER_SEC = 100;

/** utime + stime of a /proc/<pid>/stat line, in ticks (fields 14 and 15; the name may hold spaces). */
export function statCpuTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

export interface CpuSample {
  pid: string;
  role: string;
  ticks: number;
}

/**
 * CPU seconds per role between the first and the last sample of each process. A process already
 * running at `baseline` counts from its baseline ticks; one born later counts from zero.
 */
export function cpuSecondsByRole(baseline: CpuSample[], samples: CpuSample[]): Map<string, number> {
  const start = new Map(baseline.map((s) => [s.pid, s.ticks]));
  const last = new Map<string, CpuSample>();
  for (const s of samples) last.set(s.pid, s);
  const byRole = new Map<string, number>();
  for (const s of last.values()) {
    const ticks = Math.max(0, s.ticks - (start.get(s.pid) ?? 0));
    byRole.set(s.role, (byRole.get(s.role) ?? 0) + ticks / TICKS_PER_SEC);
  }
  return byRole;
}

function sampleCpu(root: string): CpuSample[] {
  const out: CpuSample[] = [];
  for (const p of serviceProcesses(root)) {
    try {
      out.push({
        pid: p.pid,
        role: p.role,
        ticks: statCpuTicks(readFileSync(`/proc/${p.pid}/stat`, 'utf8')),
      });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out;
}

/** Samples every `everyMs` until `stop()`; returns CPU seconds per role over the window. */
export function cpuByRole(root: string, everyMs = 250) {
  const baseline = sampleCpu(root);
  // Only the latest sample of each process matters: ticks only grow.
  const latest = new Map(baseline.map((s) => [s.pid, s]));
  const sample = () => sampleCpu(root).forEach((s) => latest.set(s.pid, s));
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return cpuSecondsByRole(baseline, [...latest.values()]);
    },
  };
}
