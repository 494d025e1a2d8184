/**
 * The `instructions` the ledger MCP server sends in its `initialize` answer: when a model should call which tool, and
 * what the labels of an answer mean. Clients that support instructions put them in the model's context, so they are
 * short and say what the tool descriptions alone do not: when to reach for the ledger at all.
 */

/** Instructions of the ledger MCP server (`initialize` → `instructions`). */
export const LEDGER_SERVER_INSTRUCTIONS = [
  'context-ledger keeps the verbatim originals of this conversation after compaction, so details a summary ' +
    'dropped can be read back exactly.',
  'Before relying on an exact detail you no longer see verbatim (an id, path, version, port, error text, value, or ' +
    'what the user asked), call recall with the handle, a span id (sha256:...) or a record id.',
  'When you know words but no handle, call grep (plain text or a regular expression) and recall the span id it cites; ' +
    'call expand to read a record or seq range verbatim, describe to see what a compaction record covers and dropped, ' +
    'gaps or records to see what was lost, and sessions to list the sessions you may read.',
  'Every hit is labelled verified (the stored original, hash checked) or unverified (context only); status "gap" ' +
    'means a lossy record dropped it and no stored original answers: never fill a gap from memory, say it is missing.',
  'Answers are paged: when an answer has nextCursor, pass it back as cursor (same arguments) for the rest.',
].join(' ');
