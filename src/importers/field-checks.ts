/**
 * Field checks of the importers a hook runs (Claude Code, Codex, Anthropic content blocks) and of the hook's own
 * input: plain functions, so a hook process does not load a schema library (zod alone took about 60 ms of a
 * 250 ms `Stop` hook). Each check returns nothing when the field fits, or the problem with the field's path.
 */
import { isRecord } from './jsonl-lines.js';

/** A field that does not have the shape needed: its dotted path (`(root)` for the value itself) and what is wrong. */
export interface FieldProblem {
  readonly field: string;
  readonly problem: string;
}

/** What a JSON value is, in words. */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The problem of a field holding `value` where `expected` is needed. */
export function problemOf(field: string, expected: string, value: unknown): FieldProblem {
  return { field, problem: `expected ${expected}, got ${kindOf(value)}` };
}

/** How a field may also be left out: `optional` (absent), `nullish` (absent or null), `nullable` (null, not absent). */
export type Absence = 'required' | 'optional' | 'nullish' | 'nullable';

function allowed(value: unknown, absence: Absence): boolean {
  if (value === undefined) return absence === 'optional' || absence === 'nullish';
  return value === null && (absence === 'nullish' || absence === 'nullable');
}

/** `record[key]` must be a string (of `minLength`..`maxLength` characters when given), or absent as `absence` allows. */
export function checkString(
  record: Record<string, unknown>,
  key: string,
  absence: Absence = 'required',
  length: { readonly min?: number; readonly max?: number } = {},
): FieldProblem | undefined {
  const value = record[key];
  if (allowed(value, absence)) return undefined;
  if (typeof value !== 'string') return problemOf(key, 'a string', value);
  if (length.min !== undefined && value.length < length.min)
    return { field: key, problem: `expected a string of at least ${length.min} character(s), got ${value.length}` };
  if (length.max !== undefined && value.length > length.max)
    return { field: key, problem: `expected a string of at most ${length.max} characters, got ${value.length}` };
  return undefined;
}

/** `record[key]` must be a boolean, or absent as `absence` allows. */
export function checkBoolean(
  record: Record<string, unknown>,
  key: string,
  absence: Absence = 'required',
): FieldProblem | undefined {
  const value = record[key];
  return allowed(value, absence) || typeof value === 'boolean' ? undefined : problemOf(key, 'a boolean', value);
}

/** `record[key]` must be one of `values`. */
export function checkOneOf(
  record: Record<string, unknown>,
  key: string,
  values: readonly string[],
): FieldProblem | undefined {
  const value = record[key];
  if (typeof value === 'string' && values.includes(value)) return undefined;
  return problemOf(key, `one of ${values.map((item) => JSON.stringify(item)).join(', ')}`, value);
}

/** `record[key]` must be an object. */
export function checkObject(record: Record<string, unknown>, key: string): FieldProblem | undefined {
  const problem = objectProblem(record[key]);
  return problem && { field: key, problem: problem.problem };
}

/** The first problem of several checks, if any. */
export function firstProblem(...problems: (FieldProblem | undefined)[]): FieldProblem | undefined {
  return problems.find((problem) => problem !== undefined);
}

/** `problem` with its field moved under `prefix` (`prefix.field`; the prefix alone for a `(root)` problem). */
export function under(prefix: string, problem: FieldProblem): FieldProblem {
  return { field: problem.field === '(root)' ? prefix : `${prefix}.${problem.field}`, problem: problem.problem };
}

/** The problem of a value that is not an object (a line, record, block or hook event must be one), if it is not. */
export function objectProblem(value: unknown): FieldProblem | undefined {
  return isRecord(value) ? undefined : problemOf('(root)', 'an object', value);
}

/** A record with a string `type` (a typed line, record or block), or the problem. */
export function typedRecord(value: unknown): FieldProblem | undefined {
  return objectProblem(value) ?? checkString(value as Record<string, unknown>, 'type');
}
