import { cpus, platform, release, totalmem } from 'node:os';

/** The machine a benchmark ran on. */
export interface MachineInfo {
  /** CPU model (first core). */
  readonly cpu: string;
  /** Logical cores. */
  readonly cores: number;
  /** Total memory in GiB. */
  readonly memoryGiB: number;
  /** `platform release`, e.g. `linux 6.1.0`. */
  readonly os: string;
  /** Node version. */
  readonly node: string;
}

/** Describe this machine. */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}
