/**
 * The streaming JSONL line reader every JSONL importer shares: line numbers, byte progress,
 * bounded memory (one line at a time, capped), invalid-JSON handling, `skipInvalid`, and an
 * unfinished last line.
 */
import { TranscriptParseError } from '../errors.js';
import type { ImportOptions, TranscriptParseFailure } from './events.js';
import { isIncompleteJson } from './json-prefix.js';
import { maxLineBytes, openByteStream, splitLines, TranscriptInputs } from './transcript-input.js';

/** One parsed line of a JSONL file. */
export interface JsonLine {
  /** 1-based line number. */
  readonly line: number;
  /** The parsed JSON value. */
  readonly value: unknown;
}

/** The error for a bad line: `FILE:LINE: field "X": problem.` plus what to do. */
export function lineError(file: string, line: number, field: string, problem: string): TranscriptParseFailure {
  return new TranscriptParseError(
    `${file}:${line}: field "${field}": ${problem}. Fix the line, or pass --skip-invalid to skip bad lines (each is reported).`,
    { file, line, field },
  );
}

/** Throw `error`, or report it to `onSkip` when `skipInvalid` is set. */
export function skipOrThrow(error: TranscriptParseFailure, options: ImportOptions): void {
  if (!options.skipInvalid) throw error;
  options.onSkip?.(error);
}

/**
 * Read a JSONL file line by line (a regular file, a pipe or a device; a BOM is stripped; a line
 * over {@link maxLineBytes} fails). Blank lines are ignored; a line that is not UTF-8 or not JSON throws a
 * `TranscriptParseError` (field `(line)`), or is skipped and reported under `skipInvalid`.
 * The one exception: a LAST line that is an unfinished JSON value (a writer is still writing
 * it) is ignored with a warning to `onWarning`.
 */
export async function* readJsonLines(file: string, options: ImportOptions = {}): AsyncGenerator<JsonLine> {
  const { stream, size } = await openByteStream(file, options.inputs ?? new TranscriptInputs());
  let bytes = 0;
  let failed: { line: number; text: string; problem: string; unfinished?: boolean | undefined } | undefined;
  for await (const raw of splitLines(file, stream, maxLineBytes())) {
    bytes = raw.bytes;
    if (raw.line % 500 === 0) options.onProgress?.(Math.min(bytes, size), size);
    if (raw.problem === undefined && raw.text.trim().length === 0) continue;
    if (failed) {
      skipOrThrow(lineError(file, failed.line, '(line)', failed.problem), options);
      failed = undefined;
    }
    if (raw.problem !== undefined) {
      skipOrThrow(lineError(file, raw.line, '(line)', raw.problem), options);
      continue;
    }
    let value: unknown;
    try {
      // A last line ending inside a character is being written: never a complete value, whatever its text parses to.
      if (raw.endsInsideCharacter) throw new SyntaxError('it ends inside a character');
      value = JSON.parse(raw.text);
    } catch (cause) {
      const problem = `not valid JSON (${(cause as Error).message})`;
      failed = { line: raw.line, text: raw.text, problem, unfinished: raw.endsInsideCharacter };
      continue;
    }
    yield { line: raw.line, value };
  }
  if (failed) {
    if (isIncompleteJson(failed.text) || failed.unfinished) {
      options.onWarning?.(
        `${file}:${failed.line}: the last line is an unfinished JSON value (the transcript is still being written; ignored).`,
      );
    } else {
      skipOrThrow(lineError(file, failed.line, '(line)', failed.problem), options);
    }
  }
  options.onProgress?.(size, size);
}

/** Parse the complete lines of a file head (the last line may be cut off); unparsable lines are left out. */
export function headRecords(head: string, limit = 20): unknown[] {
  const records: unknown[] = [];
  for (const text of head.split('\n').slice(0, limit)) {
    if (text.trim().length === 0) continue;
    try {
      records.push(JSON.parse(text));
    } catch {
      // a cut-off last line, or not JSONL at all
    }
  }
  return records;
}

/** True when `value` is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
