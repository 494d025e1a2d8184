import { TranscriptParseError } from '../errors.js';
import type { TranscriptMessage } from '../ingest/messages.js';
import type { ImportedEvent, TranscriptParseFailure } from './events.js';
import { lineError, readJsonLines, skipOrThrow } from './jsonl-lines.js';
import { describeIssues, fromOpenAiMessage, isOpenAiAffirmed, openAiMessageSchema } from './openai-message.js';
import type { OpenAiMessage } from './openai-message.js';
import { grantProvenance, quotedMessage, typedMessage } from './provenance.js';
import { readHead, readWholeText, TranscriptInputs } from './transcript-input.js';

/** Transcript formats `replay` reads in this version. */
export type TranscriptFormat = 'openai' | 'jsonl';

/** Options of the transcript reader. */
export interface ReadTranscriptOptions {
  /** Format, or `auto` to detect from the first bytes. */
  readonly format?: TranscriptFormat | 'auto' | undefined;
  /** Skip lines that do not parse (each is reported to `onSkip`) instead of failing. */
  readonly skipInvalid?: boolean | undefined;
  /** Called for every skipped line. */
  readonly onSkip?: ((error: TranscriptParseFailure) => void) | undefined;
  /** Called with bytes read so far, for progress. */
  readonly onProgress?: ((bytesRead: number, totalBytes: number) => void) | undefined;
  /** The owner of the inputs that are not regular files (a pipe is read once; see `ImportOptions.inputs`). */
  readonly inputs?: TranscriptInputs | undefined;
}

/** Detect the format from the first non-blank bytes: a JSON array or `{"messages": …}` is openai, else JSONL. */
export async function detectFormat(file: string, inputs = new TranscriptInputs()): Promise<TranscriptFormat> {
  const head = (await readHead(file, 4096, inputs)).trimStart();
  if (head.startsWith('[')) return 'openai';
  if (head.startsWith('{') && /^\{\s*"messages"\s*:/.test(head)) return 'openai';
  return 'jsonl';
}

/** An OpenAI-style message as an imported event, affirmed as the user's or the system prompt's when it is (see provenance.ts). */
function imported(message: OpenAiMessage, label: string): ImportedEvent {
  const converted = fromOpenAiMessage(message, label);
  return isOpenAiAffirmed(message) ? typedMessage(converted) : quotedMessage(converted);
}

async function* readJsonl(file: string, options: ReadTranscriptOptions): AsyncGenerator<ImportedEvent> {
  for await (const { line, value } of readJsonLines(file, options)) {
    const parsed = openAiMessageSchema.safeParse(value);
    if (parsed.success) {
      yield imported(parsed.data, `${file}:${line}`);
      continue;
    }
    const { field, problem } = describeIssues(parsed.error);
    skipOrThrow(lineError(file, line, field, problem), options);
  }
}

async function* readOpenAiArray(file: string, options: ReadTranscriptOptions): AsyncGenerator<ImportedEvent> {
  const text = await readWholeText(file, options.inputs ?? new TranscriptInputs());
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw lineError(file, 1, '(file)', `not valid JSON (${(cause as Error).message})`);
  }
  const messages = Array.isArray(value) ? value : (value as { messages?: unknown }).messages;
  if (!Array.isArray(messages))
    throw lineError(file, 1, 'messages', 'expected a JSON array of messages or an object with a "messages" array');
  for (const [index, message] of messages.entries()) {
    const parsed = openAiMessageSchema.safeParse(message);
    if (parsed.success) {
      yield imported(parsed.data, `${file}#${index}`);
      continue;
    }
    const { field, problem } = describeIssues(parsed.error);
    const error = new TranscriptParseError(
      `${file}: message ${index}: field "${field}": ${problem}. Fix it, or pass --skip-invalid.`,
      { file, index, field },
    );
    if (!options.skipInvalid) throw error;
    options.onSkip?.(error);
  }
  options.onProgress?.(text.length, text.length);
}

/**
 * Read an OpenAI transcript as imported events, each message with the reader's word on who wrote it. Detection and
 * the read go through `options.inputs` (one made for this read when none is given): a pipe is read once.
 */
export async function* readTranscriptImported(
  file: string,
  given: ReadTranscriptOptions = {},
): AsyncGenerator<ImportedEvent> {
  const inputs = given.inputs ?? new TranscriptInputs();
  const options: ReadTranscriptOptions = { ...given, inputs };
  const format = !options.format || options.format === 'auto' ? await detectFormat(file, inputs) : options.format;
  yield* format === 'openai' ? readOpenAiArray(file, options) : readJsonl(file, options);
}

/** Read a transcript as a stream of messages, provenance granted. Errors name the file, line (or message index) and field. */
export async function* readTranscript(
  file: string,
  options: ReadTranscriptOptions = {},
): AsyncGenerator<TranscriptMessage> {
  for await (const event of readTranscriptImported(file, options)) {
    const granted = grantProvenance(event);
    if (granted.type === 'message') yield granted.message;
  }
}
