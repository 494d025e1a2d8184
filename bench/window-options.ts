/**
 * `--window JSON`: window options for the context-ledger arm of the benches that replay a session at a budget
 * (prompt-cache, quality-claude-code, quality-swe-agent, quality-turns), so a sweep of `compactAt` / `targetFill`
 * (docs/DESIGN.md, "Cadence") can be rerun with the runner. Either one object for every budget,
 * `{"compactAt":1,"targetFill":0.8}`, or one per budget, `{"8000":{"targetFill":0.8},"4000":{"targetFill":0.9}}`
 * (a budget not listed keeps the defaults). `maxTokens` is always the budget being measured. Values are checked by
 * the library's own `resolveWindowConfig`.
 */
import { InvalidConfigError } from '../src/errors.js';
import { resolveWindowConfig } from '../src/session/config.js';
import type { WindowConfig } from '../src/types.js';
import type { BenchResult } from './bench-result.js';
import type { Benchmark } from './benchmark.js';
import type { BenchWindowOptions, WindowOverrides } from './window-overrides.js';

export type { BenchWindowOptions, WindowOverrides } from './window-overrides.js';

const FLAG = '--window';

/** The default configuration, whose keys are the known options and whose values give each option's type. */
const DEFAULTS = resolveWindowConfig(FLAG, {});

/** The JSON type each option takes (`keepRecentTokens` defaults to unset, a number when given). */
function expectedType(key: keyof WindowConfig): string {
  return key === 'keepRecentTokens' ? 'number' : typeof DEFAULTS[key];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Check `resolveWindowConfig` accepts `overrides` at `budget`; the error names the flag, the budget and the problem. */
function checkAtBudget(overrides: WindowOverrides, budget: number, where: string): void {
  try {
    resolveWindowConfig(FLAG, { ...overrides, maxTokens: budget });
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    const problems = (error.details as { problems?: readonly string[] }).problems ?? [error.message];
    throw new Error(`${FLAG}${where}: at maxTokens ${budget}: ${problems.join('; ')}`);
  }
}

/** Check one options object: known keys only, no `maxTokens`, values of the right JSON type. */
function checkOverrides(value: unknown, where: string): WindowOverrides {
  if (!isObject(value))
    throw new Error(`${FLAG}${where}: expected an object of window options, got ${JSON.stringify(value)}`);
  for (const [key, option] of Object.entries(value)) {
    if (key === 'maxTokens')
      throw new Error(`${FLAG}${where}: maxTokens is the budget being measured and cannot be set`);
    if (!(key in DEFAULTS))
      throw new Error(
        `${FLAG}${where}: unknown window option ${JSON.stringify(key)}; known: ${Object.keys(DEFAULTS)
          .filter((name) => name !== 'maxTokens')
          .join(', ')}`,
      );
    const type = expectedType(key as keyof WindowConfig);
    if (typeof option !== type)
      throw new Error(`${FLAG}${where}: ${key} must be a ${type} (got ${JSON.stringify(option)})`);
  }
  return value as WindowOverrides;
}

/** Parse and check the value of `--window`; throws an error naming the flag and the problem. */
export function parseWindowOption(text: string): BenchWindowOptions {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${FLAG}: not valid JSON (${error instanceof Error ? error.message : String(error)}): ${text}`);
  }
  if (!isObject(parsed)) throw new Error(`${FLAG}: expected a JSON object, got ${text}`);
  const keys = Object.keys(parsed);
  const budgets = keys.filter((key) => /^[1-9]\d*$/.test(key));
  if (budgets.length > 0 && budgets.length < keys.length)
    throw new Error(
      `${FLAG}: mixes budgets (${budgets.join(', ')}) with options (${keys.filter((key) => !budgets.includes(key)).join(', ')}); give either one object of options or one object per budget`,
    );
  if (budgets.length > 0) {
    const byBudget: Record<string, WindowOverrides> = {};
    for (const budget of budgets) {
      const overrides = checkOverrides(parsed[budget], ` budget ${budget}`);
      checkAtBudget(overrides, Number(budget), ` budget ${budget}`);
      byBudget[budget] = overrides;
    }
    return { text: JSON.stringify(parsed), byBudget };
  }
  const all = checkOverrides(parsed, '');
  checkAtBudget(all, DEFAULTS.maxTokens, '');
  return { text: JSON.stringify(parsed), all };
}

/**
 * The session's `window` options at `budget`: the `--window` options for it (none: the defaults) with
 * `maxTokens: budget`. Throws naming the flag when they do not hold at this budget.
 */
export function windowAt(options: BenchWindowOptions | undefined, budget: number): Partial<WindowConfig> {
  const overrides = options?.all ?? options?.byBudget?.[String(budget)] ?? {};
  if (options !== undefined) checkAtBudget(overrides, budget, '');
  return { ...overrides, maxTokens: budget };
}

/** The note a result carries when it ran with `--window`. */
export function windowNote(options: BenchWindowOptions): string {
  return `window options: ${options.text} (--window, context-ledger arm; maxTokens is the budget measured; options not given keep their defaults)`;
}

/** `result` marked as run with `options`: its `window` field, and a note under its notes and its lead figure. */
export function withWindowOptions(result: BenchResult, options: BenchWindowOptions): BenchResult {
  const note = windowNote(options);
  const lead = result.lead && { ...result.lead, notes: [...(result.lead.notes ?? []), note] };
  return { ...result, window: options.text, notes: [...result.notes, note], lead };
}

/**
 * Check `--window` against the benchmarks `selected` among `benchmarks`, before any runs: some of them must take it,
 * every budget it names must be one of theirs, and its options must hold at each of their budgets.
 */
export function checkWindowFits(
  options: BenchWindowOptions,
  benchmarks: readonly Benchmark[],
  selected: readonly string[],
): void {
  const taking = benchmarks.filter(
    (benchmark) => selected.includes(benchmark.name) && benchmark.windowBudgets !== undefined,
  );
  if (taking.length === 0)
    throw new Error(
      `${FLAG} applies to none of the benchmarks selected (${selected.join(', ')}); it applies to ${benchmarks
        .filter((benchmark) => benchmark.windowBudgets !== undefined)
        .map((benchmark) => benchmark.name)
        .join(', ')}`,
    );
  const budgets = [...new Set(taking.flatMap((benchmark) => benchmark.windowBudgets ?? []))].sort((a, b) => a - b);
  const unmeasured = Object.keys(options.byBudget ?? {}).filter((budget) => !budgets.includes(Number(budget)));
  if (unmeasured.length > 0)
    throw new Error(
      `${FLAG}: budget ${unmeasured.join(', ')} is measured by none of the benchmarks selected (${taking.map((benchmark) => benchmark.name).join(', ')} measure ${budgets.join(', ')})`,
    );
  for (const budget of budgets) windowAt(options, budget);
}
