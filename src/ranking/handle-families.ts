/**
 * Handle families: handles of one kind that differ only in their numbers and hex ids (`test_case_12`, `test_case_57`;
 * `timeout=3`, `timeout=30`; `tests/test_api_4.py`, `tests/test_api_19.py`; `Nov 4`, `Nov 9`). Many such handles
 * seen only in tool output are the rows of a listing, a log or a generated file: that the listing was long or
 * printed often says nothing about which row will be needed again, so a row's own mentions are weak evidence.
 * A handle the user or the agent said or used is judged on that evidence, never as a row.
 */
import type { Handle } from '../types.js';

/** A family needs at least this many distinct handles in the candidates to be a listing's rows. */
export const FAMILY_MIN_MEMBERS = 5;

const HEX_RUN = /\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{4,}\b/g;
const DIGIT_RUN = /\d+/g;

/**
 * Shapes of the frozen handle objects asked for lately (a compaction ranks the same frozen handles again and again).
 * Module-level on purpose: only frozen handles are kept, whose shape is a pure function of fields that cannot change,
 * so an entry is what computing the shape again gives; weak keys bound it to the handles alive.
 */
const shapes = new WeakMap<object, string | null>();

/**
 * The shape of a handle's family: its kind and its text with hex ids and digit runs masked, or undefined when the
 * text has no number or id to mask, or too few letters left to name a family (`1.2.3` and `10.0.0.4` are values,
 * not rows of one listing).
 */
export function familyShape(handle: Pick<Handle, 'kind' | 'text'>): string | undefined {
  if (!Object.isFrozen(handle)) return shapeOf(handle);
  let shape = shapes.get(handle);
  if (shape === undefined) {
    shape = shapeOf(handle) ?? null;
    shapes.set(handle, shape);
  }
  return shape ?? undefined;
}

function shapeOf(handle: Pick<Handle, 'kind' | 'text'>): string | undefined {
  const { text } = handle;
  if (handle.kind === 'constraint' || handle.kind === 'error' || !/\d/.test(text)) return undefined;
  const shape = text.replace(HEX_RUN, '\u0001').replace(DIGIT_RUN, '#');
  if (!/[A-Za-z]{2,}/.test(shape)) return undefined;
  return `${handle.kind}\u0000${shape}`;
}

/** How many of `handles` share each family shape (each handle counted once). */
export function familySizes(handles: readonly Pick<Handle, 'kind' | 'text'>[]): Map<string, number> {
  return countFamilies(handles.map(familyShape));
}

/** How many of the handles whose `familyShape`s are `shapes` share each shape (undefined: no family). */
export function countFamilies(shapes: readonly (string | undefined)[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const shape of shapes) if (shape !== undefined) sizes.set(shape, (sizes.get(shape) ?? 0) + 1);
  return sizes;
}
