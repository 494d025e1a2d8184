/** The parsed form of the runner's `--window` flag (parsed and checked in `window-options.ts`). */
import type { WindowConfig } from '../src/types.js';

/** Window options the bench may set: everything but `maxTokens`. */
export type WindowOverrides = Partial<Omit<WindowConfig, 'maxTokens'>>;

/** Parsed `--window`. */
export interface BenchWindowOptions {
  /** The flag's value as compact JSON (for notes and results). */
  readonly text: string;
  /** Options for every budget (a flat object). */
  readonly all?: WindowOverrides | undefined;
  /** Options per budget (an object keyed by budget); a budget not listed keeps the defaults. */
  readonly byBudget?: Readonly<Record<string, WindowOverrides>> | undefined;
}
