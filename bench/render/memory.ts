import { readFileSync } from 'node:fs';

/** Resident memory of a process in bytes, or 0 once it has gone. */
function rss(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Processes this one started (ffmpeg, espeak-ng). Node forks them from its main thread, so one
 * file lists them all; reading it is cheap enough to sample often without slowing the render.
 */
function childProcesses(): number[] {
  try {
    return readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, or null once it has gone. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Samples this process and all its children every `intervalMs`: the peak of their summed
 * resident memory (what the machine must hold at once) and of each part, and the CPU time
 * the children used (the last sample of each; a child's final few milliseconds are missed).
 */
export function sampleProcesses(intervalMs = 40) {
  const peak = { total: 0, node: 0, children: 0 };
  const childCpu = new Map<number, number>();
  const startCpu = process.cpuUsage();
  const sample = () => {
    const node = rss(process.pid);
    let children = 0;
    for (const pid of childProcesses()) {
      children += rss(pid);
      const cpu = cpuSeconds(pid);
      if (cpu !== null) childCpu.set(pid, cpu);
    }
    peak.total = Math.max(peak.total, node + children);
    peak.node = Math.max(peak.node, node);
    peak.children = Math.max(peak.children, children);
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const own = process.cpuUsage(startCpu);
      return {
        peak: { ...peak },
        cpu: { node: (own.user + own.system) / 1e6, children: [...childCpu.values()].reduce((a, b) => a + b, 0) },
      };
    },
  };
}
