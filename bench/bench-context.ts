import { machineInfo } from './machine.js';
import type { MachineInfo } from './machine.js';

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
  /** Progress line on stderr. */
  log(line: string): void;
}

/** A context for tests or ad-hoc runs. */
export function createBenchContext(options: {
  dataDir: string;
  tempDir: string;
  quick?: boolean;
  log?: (line: string) => void;
}): BenchContext {
  return {
    dataDir: options.dataDir,
    tempDir: options.tempDir,
    quick: options.quick ?? false,
    machine: machineInfo(),
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
}
