/**
 * What a record says a later binding replaced (issue 36, ARCHITECTURE invariant 12): when a compaction drops a
 * handle of its region because a later statement rebound its label (`DB_HOST=db-2` after `DB_HOST=db-1`, "the pool
 * size is now 79 (was 44)", "rotated from key_a to key_b", a diff's removed line against its added line), the summary
 * record lists it with the handle that replaced it, both verbatim, so an audit can show which value replaced which.
 * The field is left out when nothing was replaced: a record of a session without supersession is unchanged.
 */
import { InvalidInputError } from '../errors.js';
import type { CompactionRecord } from '../types.js';

const FIELDS = ['handle', 'seq', 'by', 'bySpan', 'bySeq'] as const;

/** What is wrong with one entry, or undefined when it is well formed. */
function entryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'is not an object';
  const value = entry as Record<string, unknown>;
  const extra = Object.keys(value).filter((key) => !(FIELDS as readonly string[]).includes(key));
  if (extra.length > 0) return `has unknown field ${JSON.stringify(extra[0])}`;
  for (const key of ['handle', 'by', 'bySpan'] as const)
    if (typeof value[key] !== 'string' || value[key].length === 0)
      return `.${key} must be a non-empty string, got ${JSON.stringify(value[key]) ?? 'nothing'}`;
  for (const key of ['seq', 'bySeq'] as const) {
    const seq = value[key];
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0)
      return `.${key} must be a whole number ≥ 0, got ${JSON.stringify(seq) ?? 'nothing'}`;
  }
  if ((value.bySeq as number) < (value.seq as number))
    return `.bySeq ${String(value.bySeq)} is before .seq ${String(value.seq)} (a value is replaced only later)`;
  return undefined;
}

/**
 * Throws `InvalidInputError` naming the record, its session and the field when `record.superseded` is present but
 * malformed: it must be a non-empty array (left out when empty) of `{ handle, seq, by, bySpan, bySeq }`, on a summary
 * or external record. `where` names the caller (`writeRecord`, a store location).
 */
export function checkSupersededField(record: CompactionRecord, where: string): void {
  const superseded: unknown = (record as { superseded?: unknown }).superseded;
  if (superseded === undefined) return;
  const at = `${where}: record ${String(record.id)} of session ${String(record.sessionId)}`;
  const fail = (field: string, problem: string): never => {
    throw new InvalidInputError(
      `${at}: field ${field} ${problem}; a record lists what a later binding replaced as ` +
        '[{ handle, seq, by, bySpan, bySeq }] and leaves the field out when nothing was replaced.',
      { sessionId: record.sessionId, recordId: record.id, field },
    );
  };
  if (record.type === 'checkpoint') fail('superseded', 'is not allowed on a checkpoint (its id does not cover it)');
  if (!Array.isArray(superseded)) fail('superseded', 'must be an array');
  const entries = superseded as readonly unknown[];
  if (entries.length === 0) fail('superseded', 'is empty (leave it out instead)');
  entries.forEach((entry, index) => {
    const problem = entryProblem(entry);
    if (problem !== undefined) fail(`superseded[${index}]`, problem);
  });
}
