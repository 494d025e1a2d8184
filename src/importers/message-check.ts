/**
 * The check every imported message passes before anyone appends it: the same rules as
 * `session.append` (role, content, tool fields, lone surrogates), reported as a
 * `TranscriptParseError` that names the file and line.
 */
import { LedgerError, TranscriptParseError } from '../errors.js';
import { validateMessage } from '../ingest/messages.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { TranscriptParseFailure } from './events.js';

/** Where a message came from, for errors: its label when that is `FILE:LINE` / `FILE#INDEX`, else the file and the label. */
export function whereOf(file: string, message: TranscriptMessage): string {
  const label = message.label;
  if (label !== undefined && label.startsWith(file)) return label;
  return label === undefined ? file : `${file} (message ${label})`;
}

/** The error for a message `session.append` would refuse, naming `where` (`FILE:LINE`); `undefined` when it is valid. */
export function invalidMessage(
  file: string,
  message: TranscriptMessage,
  where: string,
): TranscriptParseFailure | undefined {
  try {
    validateMessage(message, where);
    return undefined;
  } catch (error) {
    if (!LedgerError.isInstance(error)) throw error;
    const line = /:(\d+)(#\d+)?$/.exec(where)?.[1];
    return new TranscriptParseError(
      `${error.message}. Fix the line, or pass --skip-invalid to skip bad lines (each is reported).`,
      {
        file,
        ...(line === undefined ? {} : { line: Number(line) }),
        field: error.details.field ?? '(message)',
        where,
      },
    );
  }
}
