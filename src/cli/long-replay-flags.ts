import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what a full GC left live before the next one, in percent, for a
 * long `replay`. V8's own factor is up to 4×: a 100 MB replay whose heap holds about 50 MB live after each full
 * GC grew it to 190–225 MB between them (`--trace-gc`), and peak RSS follows that garbage, not the window. At 50%
 * a 10 MB replay's peak RSS fell from about 300 to 220 MB, for more, cheap full GCs (about 30 ms each).
 */
export const REPLAY_HEAP_GROWING_PERCENT = 50;

/**
 * How much bytecode a function runs before V8 considers optimising it, for a long `replay` (V8's own is 132 KB). A
 * replay runs hundreds of extraction rules over text of every shape: with V8's budget many were optimised, then
 * de-optimised on a new shape and optimised again, and the optimising compiler took about a quarter of a 200,000-token
 * replay's CPU. With 1.6 MB a real Claude Code session's replay took 15–35% less CPU and an 8,000-token one with many
 * compactions 24% less (paired runs, output identical); 3.2 MB and more made the latter slower again.
 */
export const REPLAY_INTERRUPT_BUDGET = 1_600_000;

/** The Node versions whose V8 is known to take `--interrupt-budget` (another prints an error line for an unknown flag). */
const INTERRUPT_BUDGET_NODES: ReadonlySet<string> = new Set(['20', '22']);

/** The command line's own V8 options and `NODE_OPTIONS`: a flag the user set there is left as the user set it. */
const givenFlags = (): readonly string[] => [...process.execArgv, process.env.NODE_OPTIONS ?? ''];

/**
 * Bound the heap's growth between full GCs for the rest of this process (a V8 flag V8 reads at every full GC),
 * unless the user set `--heap-growing-percent` on the command line or in `NODE_OPTIONS`.
 */
export function boundHeapGrowth(percent = REPLAY_HEAP_GROWING_PERCENT, given = givenFlags()): boolean {
  if (given.some((argument) => /--heap[-_]growing[-_]percent/u.test(argument))) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}

/**
 * Raise V8's interrupt budget for the rest of this process (see {@link REPLAY_INTERRUPT_BUDGET}), unless the user set
 * it or this Node's V8 is not one known to take the flag.
 */
export function raiseInterruptBudget(
  budget = REPLAY_INTERRUPT_BUDGET,
  given = givenFlags(),
  node = process.versions.node.split('.')[0] ?? '',
): boolean {
  if (!INTERRUPT_BUDGET_NODES.has(node) || given.some((argument) => /--interrupt[-_]budget/u.test(argument)))
    return false;
  setFlagsFromString(`--interrupt-budget=${budget}`);
  return true;
}

/** The V8 settings of a long replay: the heap's growth bounded, the interrupt budget raised. */
export function tuneLongReplay(): void {
  boundHeapGrowth();
  raiseInterruptBudget();
}
