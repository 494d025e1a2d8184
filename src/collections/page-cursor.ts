/**
 * Cursors of paged answers (recall, handles, records, grep, expand): a short text naming the view and where the next
 * page starts, e.g. `recall:4810` or `handles:all:120:0`. A cursor is opaque to the caller, who passes back the
 * `nextCursor` of one answer to get the next page; a malformed cursor, or one of another view, is an InvalidInputError.
 */
import { InvalidInputError } from '../errors.js';

/** The cursor of view `view` at `positions` (whole numbers ≥ 0), after any `parts` that name the page's kind. */
export function pageCursor(view: string, positions: readonly number[], parts: readonly string[] = []): string {
  return [view, ...parts, ...positions.map((position) => String(position))].join(':');
}

/**
 * The positions a cursor of `view` holds (`count` of them, after `parts`), or undefined when `cursor` is undefined.
 * InvalidInputError when the cursor is not one `pageCursor(view, …, parts)` wrote.
 */
export function readPageCursor(
  view: string,
  cursor: string | undefined,
  count: number,
  parts: readonly string[] = [],
): number[] | undefined {
  if (cursor === undefined) return undefined;
  const fields = cursor.split(':');
  const prefix = [view, ...parts];
  const positions = fields.slice(prefix.length).map((field) => (/^\d{1,15}$/.test(field) ? Number(field) : NaN));
  const matches =
    fields.length === prefix.length + count &&
    prefix.every((part, index) => fields[index] === part) &&
    positions.every((position) => Number.isSafeInteger(position));
  if (!matches)
    throw new InvalidInputError(
      `Cursor ${JSON.stringify(cursor.slice(0, 80))} is not a ${prefix.join(' ')} cursor: pass back the nextCursor ` +
        `of the previous ${view} answer unchanged (with the same arguments), or leave cursor out to start over.`,
      { cursor: cursor.slice(0, 200), view },
    );
  return positions;
}
