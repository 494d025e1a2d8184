/**
 * The shape every benchmark writes to `bench/results/<name>.json`, and the helpers that
 * compare a measurement with its target.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MachineInfo } from './machine.js';

/** One measured value checked against its target. */
export interface TargetCheck {
  /** What was measured, e.g. `future-needed handle recall @8k (claude-code)`. */
  readonly metric: string;
  /** The measured value; null when it could not be measured (data set missing, nothing to measure). */
  readonly measured: number | null;
  /** The target as text, e.g. `>= 0.95`. */
  readonly target: string;
  /** Whether the target is met; null when not measured. */
  readonly met: boolean | null;
  /** When missed: by how much, in words. */
  readonly by?: string | undefined;
  /** Why it was not measured, or what qualifies the number. */
  readonly note?: string | undefined;
}

/** A table of results, rendered as markdown in `bench/RESULTS.md`. */
export interface ResultTable {
  /** Table title. */
  readonly title: string;
  /** Column headers. */
  readonly columns: readonly string[];
  /** Rows; numbers are printed with up to 3 decimals, null as `–`. */
  readonly rows: readonly (readonly (string | number | null)[])[];
  /** Notes printed under the table. */
  readonly notes?: readonly string[] | undefined;
}

/** What one benchmark writes. */
export interface BenchResult {
  /** File name without `.json`, e.g. `quality-claude-code`. */
  readonly name: string;
  /** Human-readable title. */
  readonly title: string;
  /** ISO date of the run. */
  readonly date: string;
  /** Whether `--quick` reduced the work (each benchmark says how in `notes`). */
  readonly quick: boolean;
  /** The machine it ran on. */
  readonly machine: MachineInfo;
  /** How it was measured, what is missing, caveats. */
  readonly notes: readonly string[];
  /** Result tables. */
  readonly tables: readonly ResultTable[];
  /** Targets, measured vs wanted. */
  readonly targets: readonly TargetCheck[];
  /** The figure this benchmark leads with: printed first in `bench/RESULTS.md`, before every target. */
  readonly lead?: ResultTable | undefined;
  /** `--window` options (compact JSON) the context-ledger arm ran with; absent: the library defaults. */
  readonly window?: string | undefined;
  /** Raw numbers for other tools. */
  readonly data?: unknown;
}

/** The fields every result shares: its name and title, the run's date, mode and machine. */
export function resultBase(
  context: { readonly quick: boolean; readonly machine: MachineInfo },
  name: string,
  title: string,
): Pick<BenchResult, 'name' | 'title' | 'date' | 'quick' | 'machine'> {
  return { name, title, date: new Date().toISOString(), quick: context.quick, machine: context.machine };
}

/** The result of a benchmark whose data set is not there: it says what is missing and reports no numbers. */
export function missingDataResult(base: ReturnType<typeof resultBase>, missing: string): BenchResult {
  return {
    ...base,
    notes: [`MISSING: ${missing}. Nothing was measured; no numbers are reported.`],
    tables: [],
    targets: [],
  };
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

/** A check that `measured >= target` (e.g. a recall share or a throughput ratio). */
export function atLeast(metric: string, measured: number | null, target: number, note?: string): TargetCheck {
  if (measured === null || Number.isNaN(measured))
    return { metric, measured: null, target: `>= ${target}`, met: null, note: note ?? 'not measured' };
  const met = measured >= target;
  const by = met
    ? undefined
    : `${formatNumber(target - measured)} below the target (${((measured / target) * 100).toFixed(1)}% of it)`;
  return { metric, measured, target: `>= ${target}`, met, by, note };
}

/** A check that `measured <= target` (e.g. a latency ratio or a memory peak). */
export function atMost(metric: string, measured: number | null, target: number, note?: string): TargetCheck {
  if (measured === null || Number.isNaN(measured))
    return { metric, measured: null, target: `<= ${target}`, met: null, note: note ?? 'not measured' };
  const met = measured <= target;
  const by = met
    ? undefined
    : `${formatNumber(measured - target)} over the target (${(measured / target).toFixed(2)}x of it)`;
  return { metric, measured, target: `<= ${target}`, met, by, note };
}

/** Write `<directory>/<result.name>.json`. */
export async function writeResult(directory: string, result: BenchResult): Promise<string> {
  await mkdir(directory, { recursive: true });
  const file = join(directory, `${result.name}.json`);
  await writeFile(file, JSON.stringify(result, null, 2) + '\n');
  return file;
}

/** Round to 4 decimals for tables (null stays null). */
export function round(value: number | null | undefined, digits = 4): number | null {
  if (value === null || value === undefined || Number.isNaN(value)) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** A share `part / whole`, or null when `whole` is 0 (nothing to measure is not a zero). */
export function share(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}
