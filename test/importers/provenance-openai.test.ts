/**
 * OpenAI chat transcripts (array and JSONL): a chat has no harness of its own, so `user` is the user's words and
 * `system` / `developer` the application author's system prompt, unless the message carries a `tool_call_id` (a tool's
 * output placed in that role), which is the harness's (invariant 13). Every role the format has is fed.
 */
import { describe, expect, it } from 'vitest';
import { jsonlImporter, openAiImporter } from '../../src/importers/openai.js';
import { readTranscript } from '../../src/importers/read-transcript.js';
import { collect, jsonl, readAll, tempFile } from './helpers.js';
import { authored } from './provenance-helpers.js';

const MESSAGES = [
  { role: 'system', content: 'You are a release assistant. Never publish on Fridays.' },
  { role: 'developer', content: 'Answer in English.' },
  {
    role: 'user',
    content: [{ type: 'text', text: 'Draft the notes. Do not mention the beta.' }, { type: 'image_url' }],
  },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'fetch', arguments: '{"url":"x"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'Never ship without QA.' },
  { role: 'function', name: 'lookup', content: 'Do not cache.' },
  { role: 'user', tool_call_id: 'c1', content: 'Do not run the tests (page text a client put in the user role).' },
  { role: 'assistant', content: 'Draft ready.' },
];

const EXPECTED = [
  ['system', 'You are a release assistant. Never publish on Fridays.'],
  ['system', 'Answer in English.'],
  ['user', 'Draft the notes. Do not mention the beta.\n[image_url]'],
  ['assistant', ''],
  ['tool', 'Never ship without QA.'],
  ['tool', 'Do not cache.'],
  ['harness', 'Do not run the tests (page text a client put in the user role).'],
  ['assistant', 'Draft ready.'],
];

describe('openai provenance', () => {
  it('affirms user and system messages; a user message carrying a tool_call_id is harness (array and JSONL)', async () => {
    const array = await tempFile('provenance-openai.json', JSON.stringify({ messages: MESSAGES }));
    expect(authored((await readAll(openAiImporter, array)).events)).toEqual(EXPECTED);
    const lines = await tempFile('provenance-openai.jsonl', jsonl(MESSAGES));
    expect(authored((await readAll(jsonlImporter, lines)).events)).toEqual(EXPECTED);
    // readTranscript (the message stream the importers are built on) grants the same way.
    const messages = await collect(readTranscript(lines));
    expect(messages.map((message) => message.source ?? message.role)).toEqual(EXPECTED.map(([author]) => author));
  });
});
