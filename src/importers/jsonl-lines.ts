/**
 * The streaming JSONL line reader every JSONL importer shares: line numbers, byte progress,
 * bounded memory (one line at a time), invalid-JSON handling and `skipInvalid`.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { TranscriptParseError } from '../errors.js';
import type { ImportOptions, TranscriptParseFailure } from './events.js';

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
 * Read a JSONL file line by line. Blank lines are ignored; a line that is not JSON throws a
 * `TranscriptParseError` (field `(line)`), or is skipped and reported under `skipInvalid`.
 */
export async function* readJsonLines(file: string, options: ImportOptions = {}): AsyncGenerator<JsonLine> {
  const total = (await stat(file)).size;
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNumber = 0;
  let bytes = 0;
  try {
    for await (const text of lines) {
      lineNumber++;
      bytes += Buffer.byteLength(text, 'utf8') + 1;
      if (lineNumber % 500 === 0) options.onProgress?.(Math.min(bytes, total), total);
      if (text.trim().length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (cause) {
        skipOrThrow(lineError(file, lineNumber, '(line)', `not valid JSON (${(cause as Error).message})`), options);
        continue;
      }
      yield { line: lineNumber, value };
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  options.onProgress?.(total, total);
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
