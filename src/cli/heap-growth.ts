import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what a full GC left live before the next one, in percent, for a
 * long `replay`. V8's own factor is up to 4×: a 100 MB replay whose heap holds about 50 MB live after each full
 * GC grew it to 190–225 MB between them (`--trace-gc`), and peak RSS follows that garbage, not the window. At 50%
 * a 10 MB replay's peak RSS fell from about 300 to 220 MB, for more, cheap full GCs (about 30 ms each).
 */
export const REPLAY_HEAP_GROWING_PERCENT = 50;

/**
 * Bound the heap's growth between full GCs for the rest of this process (a V8 flag V8 reads at every full GC),
 * unless the user set `--heap-growing-percent` on the command line or in `NODE_OPTIONS`.
 */
export function boundHeapGrowth(
  percent = REPLAY_HEAP_GROWING_PERCENT,
  given: readonly string[] = [...process.execArgv, process.env.NODE_OPTIONS ?? ''],
): boolean {
  if (given.some((argument) => /--heap[-_]growing[-_]percent/u.test(argument))) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
