/**
 * `--format F` given for a file that is not in format F: what the file looks like instead, from its first 64 KB (as
 * much as detection reads), and the error that says so. The `--format` check of a command (`cli/format-check.ts`)
 * and the audit's read of a file (`audit/collect.ts`, for a pipe the command's check could not look at) share it.
 */
import { InvalidInputError } from '../errors.js';
import type { ImportFormat } from './events.js';
import { detectImportFormat, looksLike } from './registry.js';
import { readHead } from './transcript-input.js';
import type { TranscriptInputs } from './transcript-input.js';

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
 * The format `file` looks like when `format`'s detector does not recognise its first 64 KB and another format's does;
 * undefined when it is in `format`, when no specific format recognises it (a head too short to tell: the reader is
 * left to decide), or when its head cannot be read. The head is read through `inputs` (a pipe is read once).
 */
export async function mismatchedFormat(
  file: string,
  format: ImportFormat,
  inputs: TranscriptInputs,
): Promise<ImportFormat | undefined> {
  const head = await readHead(file, HEAD_BYTES, inputs).catch(() => undefined);
  if (head === undefined || head.trim().length === 0) return undefined;
  if (looksLike(format, head, file)) return undefined;
  const detected = await detectImportFormat(file, inputs);
  return detected !== format && detected !== 'jsonl' ? detected : undefined;
}
