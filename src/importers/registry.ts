/**
 * Format detection and dispatch over every importer.
 */
import { InvalidInputError } from '../errors.js';
import { aiSdkImporter } from './ai-sdk.js';
import { anthropicImporter } from './anthropic.js';
import { claudeCodeImporter } from './claude-code.js';
import { codexImporter } from './codex.js';
import type { Importer, ImportFormat, ImportOptions, TranscriptEvent } from './events.js';
import { skipOrThrow } from './jsonl-lines.js';
import { locomoImporter } from './locomo.js';
import { invalidMessage, whereOf } from './message-check.js';
import { jsonlImporter, openAiImporter } from './openai.js';
import { sweAgentImporter } from './swe-agent.js';
import { readHead, TranscriptInputs } from './transcript-input.js';

/** Importers in detection order: most specific first, the generic OpenAI formats last. */
const IMPORTERS: readonly Importer[] = [
  claudeCodeImporter,
  codexImporter,
  sweAgentImporter,
  locomoImporter,
  aiSdkImporter,
  anthropicImporter,
  openAiImporter,
  jsonlImporter,
];

/** Every format `readEvents` reads, in detection order. */
export const IMPORT_FORMATS: readonly ImportFormat[] = IMPORTERS.map((importer) => importer.format);

/** Bytes of the file head that detection looks at. */
const HEAD_BYTES = 64 * 1024;

/** Options of `readEvents`. */
export interface ReadEventsOptions extends ImportOptions {
  /** Format, or `auto` (the default) to detect it from the first 64 KB. */
  readonly format?: ImportFormat | 'auto' | undefined;
}

/** The importer of a format. */
export function importerFor(format: ImportFormat): Importer {
  const importer = IMPORTERS.find((candidate) => candidate.format === format);
  if (!importer)
    throw new InvalidInputError(
      `Unknown transcript format "${String(format)}": use one of ${IMPORT_FORMATS.join(', ')}, or auto.`,
      { field: 'format' },
    );
  return importer;
}

/**
 * Detect a file's format from its first ~64 KB; `jsonl` when nothing more specific matches. A caller that reads the
 * file after passes the `inputs` it reads with (a pipe is read once); default: a fresh owner, for a look and no more.
 */
export async function detectImportFormat(file: string, inputs = new TranscriptInputs()): Promise<ImportFormat> {
  const head = await readHead(file, HEAD_BYTES, inputs);
  return IMPORTERS.find((importer) => importer.detect(head, file))?.format ?? 'jsonl';
}

/**
 * Read any supported transcript as a stream of events (format detected unless given). Every
 * message is checked as `session.append` would check it; one that would be refused is a
 * `TranscriptParseError` naming its file and line (or skipped and reported under `skipInvalid`). Detection and the
 * importer read through `options.inputs` (one made for this read when none is given): a pipe is read once.
 */
export async function* readEvents(file: string, given: ReadEventsOptions = {}): AsyncGenerator<TranscriptEvent> {
  const inputs = given.inputs ?? new TranscriptInputs();
  const options: ReadEventsOptions = { ...given, inputs };
  const format = !options.format || options.format === 'auto' ? await detectImportFormat(file, inputs) : options.format;
  for await (const event of importerFor(format).read(file, options)) {
    if (event.type === 'message') {
      const invalid = invalidMessage(file, event.message, whereOf(file, event.message));
      if (invalid) {
        skipOrThrow(invalid, options);
        continue;
      }
    }
    yield event;
  }
}
