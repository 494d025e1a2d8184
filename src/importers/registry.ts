/**
 * Format detection and dispatch over every importer.
 */
import { InvalidInputError } from '../errors.js';
import {
  detectAiSdk,
  detectAnthropic,
  detectClaudeCode,
  detectCodex,
  detectJsonl,
  detectLocomo,
  detectOpenAi,
  detectSweAgent,
} from './detect.js';
import type { Importer, ImportFormat, ImportOptions, TranscriptEvent } from './events.js';
import { skipOrThrow } from './jsonl-lines.js';
import { invalidMessage, whereOf } from './message-check.js';
import { readHead, TranscriptInputs } from './transcript-input.js';

/**
 * One format: how to recognise it (zod-free, see detect.ts) and how to load its importer. An importer is loaded only
 * when a file of its format is read: a replay of a Claude Code session never loads the JSON formats' zod schemas, a
 * chat JSONL never loads Claude Code's or Codex's readers.
 */
interface ImporterEntry {
  readonly format: ImportFormat;
  readonly detect: (head: string, file: string) => boolean;
  readonly load: () => Promise<Importer>;
}

/** Importers in detection order: most specific first, the generic OpenAI formats last. */
const IMPORTERS: readonly ImporterEntry[] = [
  {
    format: 'claude-code',
    detect: detectClaudeCode,
    load: async () => (await import('./claude-code.js')).claudeCodeImporter,
  },
  { format: 'codex', detect: detectCodex, load: async () => (await import('./codex.js')).codexImporter },
  { format: 'swe-agent', detect: detectSweAgent, load: async () => (await import('./swe-agent.js')).sweAgentImporter },
  { format: 'locomo', detect: detectLocomo, load: async () => (await import('./locomo.js')).locomoImporter },
  { format: 'ai-sdk', detect: detectAiSdk, load: async () => (await import('./ai-sdk.js')).aiSdkImporter },
  {
    format: 'anthropic',
    detect: detectAnthropic,
    load: async () => (await import('./anthropic.js')).anthropicImporter,
  },
  { format: 'openai', detect: detectOpenAi, load: async () => (await import('./openai.js')).openAiImporter },
  { format: 'jsonl', detect: detectJsonl, load: async () => (await import('./openai.js')).jsonlImporter },
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

/** The registry entry of a format; an unknown one is an `InvalidInputError` naming the formats. */
function entryOf(format: ImportFormat): ImporterEntry {
  const entry = IMPORTERS.find((candidate) => candidate.format === format);
  if (!entry)
    throw new InvalidInputError(
      `Unknown transcript format "${String(format)}": use one of ${IMPORT_FORMATS.join(', ')}, or auto.`,
      { field: 'format' },
    );
  return entry;
}

/** The importer of a format (its module is loaded on the first call). */
export async function importerFor(format: ImportFormat): Promise<Importer> {
  return entryOf(format).load();
}

/** Whether `head` (the first ~64 KB of `file`) looks like `format`, by its detector alone (no importer is loaded). */
export function looksLike(format: ImportFormat, head: string, file: string): boolean {
  return entryOf(format).detect(head, file);
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
  const importer = await importerFor(format);
  for await (const event of importer.read(file, options)) {
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
