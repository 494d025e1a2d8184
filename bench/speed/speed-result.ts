import type { BenchResult, ResultTable, TargetCheck } from '../bench-result.js';
import type { BenchContext } from '../bench-context.js';

/** Assemble a speed benchmark's result. */
export function speedResult(
  context: BenchContext,
  name: string,
  title: string,
  parts: { notes: string[]; tables: ResultTable[]; targets: TargetCheck[]; data?: unknown },
): BenchResult {
  return { name, title, date: new Date().toISOString(), quick: context.quick, machine: context.machine, ...parts };
}
