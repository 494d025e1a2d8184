import { machineInfo } from './machine.js';
import type { MachineInfo } from './machine.js';
import type { BenchWindowOptions } from './window-overrides.js';

/** What every benchmark is given by the runner. */
export interface BenchContext {
  /** Folder of the data sets (`--data`, default `../shared/data`). */
  readonly dataDir: string;
  /** `--quick`: smaller sizes, labelled in the results. */
  readonly quick: boolean;
  /** Scratch folder for generated files and databases (removed by the runner). */
  readonly tempDir: string;
  /** The machine. */
  readonly machine: MachineInfo;
  /** `--window`: window options of the context-ledger arm (given only to benchmarks that take them). */
  readonly window?: BenchWindowOptions | undefined;
  /** Progress line on stderr. */
  log(line: string): void;
}

/** A context for tests or ad-hoc runs. */
export function createBenchContext(options: {
  dataDir: string;
  tempDir: string;
  quick?: boolean;
  window?: BenchWindowOptions | undefined;
  log?: (line: string) => void;
}): BenchContext {
  return {
    dataDir: options.dataDir,
    tempDir: options.tempDir,
    quick: options.quick ?? false,
    window: options.window,
    machine: machineInfo(),
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
}
