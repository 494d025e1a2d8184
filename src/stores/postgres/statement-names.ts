/**
 * Names for the store's fixed SQL, so the driver prepares each statement once per connection
 * (pg parses a named statement on its first use on a connection and then only binds and
 * executes it) instead of sending, parsing and planning its text on every call: measured on the
 * recall path, planning the span lookup alone took longer than running it. A name is derived
 * from the statement's text (schema included), so stores on one pool never give two texts the
 * same name. Text built per call (the free-text search) stays unnamed.
 */
import { createHash } from 'node:crypto';

/** Prefix of every statement name the store prepares. */
export const STATEMENT_NAME_PREFIX = 'context_ledger_';

/** The name of each fixed statement among `statements` (string values only), keyed by its text. */
export function statementNames(statements: Readonly<Record<string, unknown>>): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const text of Object.values(statements)) {
    if (typeof text !== 'string') continue;
    const digest = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
    names.set(text, `${STATEMENT_NAME_PREFIX}${digest}`);
  }
  return names;
}
