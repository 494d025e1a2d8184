/**
 * Reading a transcript file for an audit: its conversations, each a list of messages and
 * the agent's own compactions, in order.
 */
import { access, constants, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { InvalidInputError } from '../errors.js';
import type { CompactionSummarizer, ImportFormat, TranscriptParseFailure } from '../importers/events.js';
import { formatMismatchError, mismatchedFormat } from '../importers/format-mismatch.js';
import { detectImportFormat, readEvents } from '../importers/registry.js';
import { TranscriptInputs } from '../importers/transcript-input.js';
import type { TranscriptMessage } from '../ingest/messages.js';

/** One item of a conversation: a message, or the agent's own compaction. */
export type CollectedItem =
  | { readonly type: 'message'; readonly message: TranscriptMessage }
  | {
      readonly type: 'compaction';
      readonly summary: string;
      readonly summarizer: CompactionSummarizer;
      readonly label: string | null;
    };

/** One conversation of a file. */
export interface CollectedSession {
  /** Session id. */
  readonly sessionId: string;
  /** Messages and compactions in file order. */
  readonly items: readonly CollectedItem[];
}

/** A file read for an audit. */
export interface CollectedFile {
  /** The format read. */
  readonly format: ImportFormat;
  /** Its conversations (empty ones left out). */
  readonly sessions: readonly CollectedSession[];
  /** Lines skipped under `skipInvalid`. */
  readonly skipped: number;
}

/** Options of {@link collectFile}. */
export interface CollectOptions {
  /** Format, or `auto`. */
  readonly format?: ImportFormat | 'auto' | undefined;
  /** Skip invalid lines (each reported to `onSkip`). */
  readonly skipInvalid?: boolean | undefined;
  /** Called for every skipped line. */
  readonly onSkip?: ((error: TranscriptParseFailure) => void) | undefined;
  /** Called with a warning naming file and line (an unfinished last line, ignored). */
  readonly onWarning?: ((message: string) => void) | undefined;
  /** Byte progress. */
  readonly onProgress?: ((bytesRead: number, totalBytes: number) => void) | undefined;
  /** The owner of the inputs that are not regular files (a pipe is read once); default: one for this file's read. */
  readonly inputs?: TranscriptInputs | undefined;
}

/**
 * Read `file` into conversations. Throws InvalidInputError for a missing file or one that is not in the format given
 * (it looks like another), TranscriptParseError for a bad line.
 */
export async function collectFile(file: string, options: CollectOptions = {}): Promise<CollectedFile> {
  await access(file, constants.R_OK).catch(() => {
    throw new InvalidInputError(`${file}: cannot read the transcript (missing or not readable). Check the path.`, {
      file,
    });
  });
  if ((await stat(file)).isDirectory())
    throw new InvalidInputError(`${file}: is a directory; give transcript files (e.g. a shell glob *.jsonl)`, { file });
  // Detected (or checked against the format given), then read: a pipe (`audit <(cat f)`) gives its bytes once, held
  // by one owner for both. The command's own check before the audit could not look at a pipe without using it up.
  const inputs = options.inputs ?? new TranscriptInputs();
  const given = options.format === 'auto' ? undefined : options.format;
  const format = given ?? (await detectImportFormat(file, inputs));
  const mismatch = given === undefined ? undefined : await mismatchedFormat(file, given, inputs);
  if (mismatch !== undefined) throw formatMismatchError(file, format, mismatch);
  const fallbackId = basename(file, extname(file));
  const sessions: { sessionId: string; items: CollectedItem[] }[] = [];
  let current: { sessionId: string; items: CollectedItem[] } | undefined;
  let skipped = 0;
  const onSkip = (error: TranscriptParseFailure) => {
    skipped++;
    options.onSkip?.(error);
  };
  for await (const event of readEvents(file, {
    format,
    skipInvalid: options.skipInvalid,
    inputs,
    onSkip,
    onWarning: options.onWarning,
    onProgress: options.onProgress,
  })) {
    if (event.type === 'session') {
      current = { sessionId: event.sessionId, items: [] };
      sessions.push(current);
      continue;
    }
    if (!current) {
      current = { sessionId: fallbackId, items: [] };
      sessions.push(current);
    }
    if (event.type === 'message') current.items.push({ type: 'message', message: event.message });
    else
      current.items.push({
        type: 'compaction',
        summary: event.summary,
        summarizer: event.summarizer,
        label: event.label ?? null,
      });
  }
  return {
    format,
    sessions: sessions.filter((session) => session.items.some((item) => item.type === 'message')),
    skipped,
  };
}
