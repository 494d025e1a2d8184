/**
 * The OpenAI chat formats of `readTranscript` (a JSON array / `{messages}` object, and JSONL
 * of one message per line) as importers yielding `message` events.
 */
import type { Importer, ImportOptions, TranscriptEvent } from './events.js';
import { readTranscript } from './read-transcript.js';
import type { TranscriptFormat } from './read-transcript.js';

function reader(format: TranscriptFormat) {
  return async function* read(file: string, options: ImportOptions): AsyncGenerator<TranscriptEvent> {
    for await (const message of readTranscript(file, { ...options, format })) yield { type: 'message', message };
  };
}

/** OpenAI chat messages as a JSON array, or an object with a `messages` array. */
export const openAiImporter: Importer = {
  format: 'openai',
  detect: (head) => {
    const start = head.trimStart();
    return start.startsWith('[') || /^\{\s*"messages"\s*:/.test(start);
  },
  read: reader('openai'),
};

/** OpenAI chat messages, one JSON object per line (the fallback for any other `{`-led file). */
export const jsonlImporter: Importer = {
  format: 'jsonl',
  detect: (head) => head.trimStart().startsWith('{'),
  read: reader('jsonl'),
};
