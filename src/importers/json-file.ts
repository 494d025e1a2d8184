/**
 * Helpers for importers of whole-JSON files (Anthropic, AI SDK, LoCoMo, single trajectories):
 * read and parse the file, and errors that name the record path and field.
 */
import type { z } from 'zod';
import { TranscriptParseError } from '../errors.js';
import type { ImportOptions, TranscriptParseFailure } from './events.js';
import { describeIssues } from './openai-message.js';
import { readWholeText, TranscriptInputs } from './transcript-input.js';

/** The error for a bad record of a JSON file: `FILE: RECORD: field "X": problem.` plus what to do. */
export function recordError(file: string, record: string, field: string, problem: string): TranscriptParseFailure {
  return new TranscriptParseError(
    `${file}: ${record}: field "${field}": ${problem}. Fix it, or pass --skip-invalid to skip bad records (each is reported).`,
    { file, record, field },
  );
}

/** The error for a zod failure of a record, naming its first issue's field. */
export function zodRecordError(file: string, record: string, error: z.ZodError, prefix = ''): TranscriptParseFailure {
  const { field, problem } = describeIssues(error);
  const named = prefix ? (field === '(root)' ? prefix : `${prefix}.${field}`) : field;
  return recordError(file, record, named, problem);
}

function lineOf(text: string, message: string): number {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return 1;
  return text.slice(0, Number(position)).split('\n').length;
}

/**
 * Read and parse a whole JSON file (BOM stripped, size capped, pipes read once); a syntax error
 * names the file and line. Reports progress once, at the end.
 */
export async function readJsonFile(file: string, options: ImportOptions = {}): Promise<unknown> {
  const text = await readWholeText(file, options.inputs ?? new TranscriptInputs());
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const message = (cause as Error).message;
    const line = lineOf(text, message);
    throw new TranscriptParseError(
      `${file}:${line}: field "(file)": not valid JSON (${message}). Fix the file; a whole-JSON transcript cannot skip a syntax error.`,
      {
        file,
        line,
        field: '(file)',
      },
    );
  }
  const total = Buffer.byteLength(text, 'utf8');
  options.onProgress?.(total, total);
  return value;
}
