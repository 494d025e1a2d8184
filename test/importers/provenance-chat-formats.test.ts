/**
 * Anthropic Messages, AI SDK `ModelMessage`s and LoCoMo: formats with no harness of their own (invariant 13). The
 * system prompt and the user's (or, in LoCoMo, a person's) words are affirmed; tool results are tools'. Every record
 * type each format has is fed, so a change that starts demoting or promoting one of them shows here.
 */
import { describe, expect, it } from 'vitest';
import { aiSdkImporter } from '../../src/importers/ai-sdk.js';
import { anthropicImporter } from '../../src/importers/anthropic.js';
import { IMPORT_FORMATS, importerFor } from '../../src/importers/registry.js';
import { locomoImporter } from '../../src/importers/locomo.js';
import { grantMessage } from '../../src/importers/provenance.js';
import { readAll, tempFile } from './helpers.js';
import { authored } from './provenance-helpers.js';

describe('anthropic provenance', () => {
  it('affirms the system prompt and user text; tool results are tools', async () => {
    const body = {
      system: [{ type: 'text', text: 'You are a deploy bot. Never deploy on Fridays.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Deploy api. Do not restart the cache.' }, { type: 'image' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'plan' },
            { type: 'tool_use', id: 't1', name: 'sh', input: { cmd: 'ls' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Never roll back.' }] },
        { role: 'assistant', content: 'Deployed.' },
      ],
    };
    const file = await tempFile('provenance-anthropic.json', JSON.stringify(body));
    expect(authored((await readAll(anthropicImporter, file)).events)).toEqual([
      ['system', 'You are a deploy bot. Never deploy on Fridays.'],
      ['user', 'Deploy api. Do not restart the cache.\n[image]'],
      ['assistant', ''],
      ['tool', 'Never roll back.'],
      ['assistant', 'Deployed.'],
    ]);
  });
});

describe('ai-sdk provenance', () => {
  it('affirms system and user parts; tool results are tools', async () => {
    const messages = [
      { role: 'system', content: 'You are a support agent. Never promise refunds.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Check order 42. Do not email the customer.' },
          { type: 'file', filename: 'receipt.pdf', mediaType: 'application/pdf' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'look it up' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'order', input: { id: 42 } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'order',
            output: { type: 'text', value: 'Never refund.' },
          },
        ],
      },
      { role: 'assistant', content: 'Order 42 shipped.' },
    ];
    const file = await tempFile('provenance-ai-sdk.json', JSON.stringify(messages));
    expect(authored((await readAll(aiSdkImporter, file)).events)).toEqual([
      ['system', 'You are a support agent. Never promise refunds.'],
      ['user', 'Check order 42. Do not email the customer.\n[file: receipt.pdf]'],
      ['assistant', ''],
      ['tool', 'Never refund.'],
      ['assistant', 'Order 42 shipped.'],
    ]);
  });
});

describe('locomo provenance', () => {
  it('affirms the session heading and the first speaker: a conversation between people', async () => {
    const sample = {
      sample_id: 'conv-x',
      conversation: {
        speaker_a: 'Ana',
        speaker_b: 'Ben',
        session_1_date_time: '1:00 pm on 3 May, 2023',
        session_1: [
          { speaker: 'Ana', dia_id: 'D1:1', text: 'Never call me before noon.' },
          { speaker: 'Ben', dia_id: 'D1:2', text: 'Noted.', blip_caption: 'a clock' },
        ],
      },
      qa: [],
    };
    const file = await tempFile('provenance-locomo.json', JSON.stringify([sample]));
    expect(authored((await readAll(locomoImporter, file)).events)).toEqual([
      ['system', 'Session 1 — 1:00 pm on 3 May, 2023'],
      ['user', 'Ana: Never call me before noon.'],
      ['assistant', 'Ben: Noted. [image: a clock]'],
    ]);
  });
});

describe('the allow-list is structural', () => {
  it('every importer declares what a person typed in its format', async () => {
    for (const format of IMPORT_FORMATS)
      expect((await importerFor(format)).provenance.typed.length, format).toBeGreaterThan(0);
  });

  it('a user or system message nobody affirmed is harness; affirmed, quoted and non-user messages keep their source', () => {
    expect(grantMessage({ role: 'user', content: 'x' }, false)).toEqual({
      role: 'user',
      content: 'x',
      source: 'harness',
    });
    expect(grantMessage({ role: 'system', content: 'x' }, false)).toMatchObject({ source: 'harness' });
    expect(grantMessage({ role: 'user', content: 'x' }, true)).toEqual({ role: 'user', content: 'x' });
    expect(grantMessage({ role: 'user', content: 'x', source: 'client' }, false)).toMatchObject({ source: 'client' });
    expect(grantMessage({ role: 'assistant', content: 'x' }, false)).toEqual({ role: 'assistant', content: 'x' });
    expect(grantMessage({ role: 'tool', content: 'x', toolCallId: 'c' }, false)).not.toHaveProperty('source');
  });
});
