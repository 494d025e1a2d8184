/**
 * The counting pass a replay is measured against, in the same run: the importer reads the file and a counter counts
 * every message text and tool-call argument once (`tokenizerPass` of the scale benchmark). Timed by the wall clock
 * and by this process's CPU time: on a machine shared with other work the CPU figure moves far less between runs,
 * and the replay's own CPU time comes from `/usr/bin/time`.
 */
import { tokenizerPass } from '../speed/replay-scale-bench.js';

/** The counting speed over one file. */
export interface CountingSpeed {
  /** MB per wall-clock second (median of the timed passes). */
  readonly wallMBps: number;
  /** MB per CPU second of this process, user plus system (median of the timed passes). */
  readonly cpuMBps: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
}

/**
 * Count `file` (`megabytes` long) once to warm the importer, the code and the caches, then `passes` more times; the
 * medians of those. `count` defaults to the project's o200k counter.
 */
export async function countingSpeed(
  file: string,
  megabytes: number,
  passes: number,
  count?: (text: string) => number,
): Promise<CountingSpeed> {
  await tokenizerPass(file, megabytes, count);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let pass = 0; pass < Math.max(1, passes); pass++) {
    const before = process.cpuUsage();
    wall.push(await tokenizerPass(file, megabytes, count));
    const used = process.cpuUsage(before);
    cpu.push(megabytes / Math.max(1e-6, (used.user + used.system) / 1e6));
  }
  return { wallMBps: median(wall), cpuMBps: median(cpu) };
}
