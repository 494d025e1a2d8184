/**
 * `--format F` given for a file that is not in format F: found before any work (`replay` would store 0 spans and
 * exit 0; `audit --format locomo` on a Claude Code file said the valid file was "not valid JSON").
 */
import { stat } from 'node:fs/promises';
import { InvalidInputError, TranscriptParseError } from '../errors.js';
import type { ImportFormat } from '../importers/events.js';
import { formatMismatchError, mismatchedFormat } from '../importers/format-mismatch.js';
import { detectImportFormat } from '../importers/registry.js';
import { TranscriptInputs } from '../importers/transcript-input.js';

export { formatMismatchError };

/**
 * Throw {@link formatMismatchError} when `format` is given (not `auto`), its detector does not recognise the file's
 * first 64 KB, and another format's does. When none does (a head too short to tell), the reader is left to decide.
 * `inputs`: the owner the command then reads the file with. Without one, an input that is not a regular file (a pipe)
 * is not checked here (the check would use it up, and the reader would find it empty): `audit`'s read checks it.
 */
export async function checkTranscriptFormat(
  file: string,
  format: ImportFormat | 'auto' | undefined,
  inputs?: TranscriptInputs,
): Promise<void> {
  if (format === undefined || format === 'auto') return;
  if (inputs === undefined && (await stat(file).catch(() => undefined))?.isFile() !== true) return;
  const detected = await mismatchedFormat(file, format, inputs ?? new TranscriptInputs());
  if (detected !== undefined) throw formatMismatchError(file, format, detected);
}

/**
 * The error of a replay that read no message from a non-empty file under an explicit `--format`: a format mismatch the
 * head did not show, or a file with no conversation in it. Nothing is stored either way. `inputs`: the owner the
 * replay read the file with (a pipe is not read again).
 */
export async function noMessagesError(
  file: string,
  given: ImportFormat,
  inputs: TranscriptInputs,
): Promise<InvalidInputError> {
  const detected = await detectImportFormat(file, inputs);
  if (detected !== given) return formatMismatchError(file, given, detected);
  return new InvalidInputError(
    `${file}: read as ${given}, it holds no message to replay; nothing was stored. Check that this is the transcript ` +
      'you meant (an agent writes some files with no conversation in them).',
    { file, format: given },
  );
}

/**
 * A parse error met before the first message under an explicit `--format`: when the file looks like another format,
 * the mismatch is the news (with the parser's words after it); else the parse error as it is. `inputs`: the owner the
 * replay read the file with (a pipe is not read again).
 */
export async function explainEarlyFailure(
  file: string,
  given: ImportFormat,
  error: unknown,
  inputs: TranscriptInputs,
): Promise<unknown> {
  if (!TranscriptParseError.isInstance(error)) return error;
  const detected = await detectImportFormat(file, inputs).catch(() => given);
  if (detected === given) return error;
  const mismatch = formatMismatchError(file, given, detected);
  return new InvalidInputError(`${mismatch.message} (Read as ${given}: ${error.message})`, mismatch.details);
}
