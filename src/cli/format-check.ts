/**
 * `--format F` given for a file that is not in format F: found before any work (`replay` would store 0 spans and
 * exit 0; `audit --format locomo` on a Claude Code file said the valid file was "not valid JSON").
 */
import { InvalidInputError, TranscriptParseError } from '../errors.js';
import type { ImportFormat } from '../importers/events.js';
import { detectImportFormat, importerFor } from '../importers/registry.js';
import { readHead } from '../importers/transcript-input.js';

/** Bytes of the head the check reads (as much as detection reads). */
const HEAD_BYTES = 64 * 1024;

/** The error of a file that is not in the format `--format` named: the file, the format given, the one it looks like. */
export function formatMismatchError(file: string, given: ImportFormat, detected: ImportFormat): InvalidInputError {
  const looks =
    detected === 'jsonl' ? 'no specific format (read as generic JSONL messages)' : `a ${detected} transcript`;
  return new InvalidInputError(
    `${file}: --format ${given} does not match this file, which looks like ${looks}. ` +
      `Leave --format out (the format is detected), or pass --format ${detected}.`,
    { file, format: given, detected },
  );
}

/**
 * Throw {@link formatMismatchError} when `format` is given (not `auto`), its detector does not recognise the file's
 * first 64 KB, and another format's does. When none does (a head too short to tell), the reader is left to decide.
 */
export async function checkTranscriptFormat(file: string, format: ImportFormat | 'auto' | undefined): Promise<void> {
  if (format === undefined || format === 'auto') return;
  const head = await readHead(file, HEAD_BYTES).catch(() => undefined);
  if (head === undefined || head.trim().length === 0) return;
  if (importerFor(format).detect(head, file)) return;
  const detected = await detectImportFormat(file);
  if (detected !== format && detected !== 'jsonl') throw formatMismatchError(file, format, detected);
}

/**
 * The error of a replay that read no message from a non-empty file under an explicit `--format`: a format mismatch the
 * head did not show, or a file with no conversation in it. Nothing is stored either way.
 */
export async function noMessagesError(file: string, given: ImportFormat): Promise<InvalidInputError> {
  const detected = await detectImportFormat(file);
  if (detected !== given) return formatMismatchError(file, given, detected);
  return new InvalidInputError(
    `${file}: read as ${given}, it holds no message to replay; nothing was stored. Check that this is the transcript ` +
      'you meant (an agent writes some files with no conversation in them).',
    { file, format: given },
  );
}

/**
 * A parse error met before the first message under an explicit `--format`: when the file looks like another format,
 * the mismatch is the news (with the parser's words after it); else the parse error as it is.
 */
export async function explainEarlyFailure(file: string, given: ImportFormat, error: unknown): Promise<unknown> {
  if (!TranscriptParseError.isInstance(error)) return error;
  const detected = await detectImportFormat(file).catch(() => given);
  if (detected === given) return error;
  const mismatch = formatMismatchError(file, given, detected);
  return new InvalidInputError(`${mismatch.message} (Read as ${given}: ${error.message})`, mismatch.details);
}
