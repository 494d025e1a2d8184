/**
 * The OpenAI chat formats of `readTranscript` (a JSON array / `{messages}` object, and JSONL
 * of one message per line) as importers yielding `message` events.
 *
 * Provenance (see provenance.ts): a chat transcript has no harness of its own. A `user` message is the user's words
 * and a `system` / `developer` message is the system prompt the application's author wrote, unless it carries a
 * `tool_call_id` (a tool's output placed in that role), which is source `harness`. `tool` / `function` messages are
 * tool results.
 */
import { detectJsonl, detectOpenAi } from './detect.js';
import type { FormatProvenance, ImportedEvent, ImportOptions } from './events.js';
import { defineImporter } from './provenance.js';
import { readTranscriptImported } from './read-transcript.js';
import type { TranscriptFormat } from './read-transcript.js';

function reader(format: TranscriptFormat) {
  return (file: string, options: ImportOptions): AsyncGenerator<ImportedEvent> =>
    readTranscriptImported(file, { ...options, format });
}

/** What a person wrote in an OpenAI chat transcript, and what no person wrote in the user and system roles. */
const provenance: FormatProvenance = {
  typed: ['`user` messages', "`system` / `developer` messages (the application author's system prompt)"],
  quoted: ['`user`, `system` or `developer` messages carrying a `tool_call_id` (tool output in that role)'],
};

/** OpenAI chat messages as a JSON array, or an object with a `messages` array. */
export const openAiImporter = defineImporter({
  format: 'openai',
  provenance,
  detect: detectOpenAi,
  readImported: reader('openai'),
});

/** OpenAI chat messages, one JSON object per line (the fallback for any other `{`-led file). */
export const jsonlImporter = defineImporter({
  format: 'jsonl',
  provenance,
  detect: detectJsonl,
  readImported: reader('jsonl'),
});
