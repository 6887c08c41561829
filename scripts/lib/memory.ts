// The resident memory of a shop's process group (issue 20, item 5): read by the benchmark and by
// Lighthouse's comparison of two builds.
import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory of the shop's processes (npm, start.ts, the server), in MiB: the whole group and its largest process (the server). */
export interface Memory {
  totalMiB: number;
  serverMiB: number;
}
const PAGE_KIB = 4;
export function memoryOf(group: number): Memory {
  let total = 0;
  let largest = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; statm: "size resident …" in pages.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== group) continue;
      const resident = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_KIB;
      total += resident;
      largest = Math.max(largest, resident);
    } catch {
      // the process ended meanwhile
    }
  }
  return { totalMiB: total / 1024, serverMiB: largest / 1024 };
}
/** The highest memory of the group while `work` runs, sampled every half second. */
export async function peakMemory<T>(group: number, work: () => Promise<T>): Promise<[T, Memory]> {
  let peak = memoryOf(group);
  const timer = setInterval(() => {
    const now = memoryOf(group);
    if (now.totalMiB > peak.totalMiB) peak = now;
  }, 500);
  try {
    return [await work(), peak];
  } finally {
    clearInterval(timer);
  }
}
