import { describe, expect, it } from 'vitest';
import { TranscriptParseError } from '../../src/errors.js';
import { aiSdkImporter } from '../../src/importers/ai-sdk.js';
import { errorOf, fixture, message, readAll, tempFile } from './helpers.js';

describe('ai-sdk importer', () => {
  it('reads ModelMessage[]: parts, tool calls and every tool output type', async () => {
    const file = fixture('ai-sdk-messages.json');
    const at = (index: number) => `${file}#${index}`;
    const { events, skipped } = await readAll(aiSdkImporter, file);
    expect(skipped).toEqual([]);
    expect(events).toEqual([
      message({ role: 'system', content: 'You help operators of the fleet-tracker service.', label: at(0) }),
      message({
        role: 'user',
        content: 'Where is truck TX-409 and is its log attached?\n[image]\n[file: tx409.log]',
        label: at(1),
      }),
      message({
        role: 'assistant',
        content: 'Looking it up.',
        toolCalls: [
          { id: 'call_f1', name: 'locate', arguments: '{"truck":"TX-409"}' },
          { id: 'call_f2', name: 'readLog', arguments: '{"file":"tx409.log"}' },
        ],
        label: at(2),
      }),
      message({
        role: 'tool',
        content: '{"lat":52.37,"lon":4.89,"city":"Amsterdam"}',
        toolCallId: 'call_f1',
        toolName: 'locate',
        label: at(3),
      }),
      message({ role: 'tool', content: 'ENOENT: tx409.log', toolCallId: 'call_f2', toolName: 'readLog', label: at(3) }),
      message({
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'call_f3', name: 'notify', arguments: '{"to":"ops"}' },
          { id: 'call_f4', name: 'snapshot', arguments: '{}' },
        ],
        label: at(4),
      }),
      message({
        role: 'tool',
        content: '[execution denied: operator declined]',
        toolCallId: 'call_f3',
        toolName: 'notify',
        label: at(5),
      }),
      message({
        role: 'tool',
        content: 'snapshot taken\n[media]',
        toolCallId: 'call_f4',
        toolName: 'snapshot',
        label: at(5),
      }),
      message({
        role: 'assistant',
        content: 'TX-409 is in Amsterdam (52.37, 4.89). The log file was not found.',
        label: at(6),
      }),
    ]);
  });

  it('accepts {messages}, ai@4 args/result, and provider-executed results in assistant content', async () => {
    const file = await tempFile(
      'legacy.json',
      JSON.stringify({
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', toolCallId: 'c1', toolName: 'search', args: { q: 'rates' } },
              { type: 'tool-result', toolCallId: 'c1', toolName: 'search', result: { hits: 2 } },
            ],
          },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'echo', result: 'plain' }] },
        ],
      }),
    );
    const { events } = await readAll(aiSdkImporter, file);
    expect(events).toEqual([
      message({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'search', arguments: '{"q":"rates"}' }],
        label: `${file}#0`,
      }),
      message({ role: 'tool', content: '{"hits":2}', toolCallId: 'c1', toolName: 'search', label: `${file}#0` }),
      message({ role: 'tool', content: 'plain', toolCallId: 'c2', toolName: 'echo', label: `${file}#1` }),
    ]);
  });

  it('names file, message index and field of bad messages; skipInvalid skips them', async () => {
    const file = await tempFile(
      'bad.json',
      JSON.stringify([
        { role: 'system', content: 'ok' },
        { role: 'tool', content: [{ type: 'tool-result', toolName: 'x', output: { type: 'text', value: 'y' } }] },
        { role: 'system', content: [] },
      ]),
    );
    const error = await errorOf(aiSdkImporter, file);
    expect(TranscriptParseError.isInstance(error)).toBe(true);
    expect(error.message).toContain(`${file}: messages[1]: field "content.0.toolCallId"`);
    const { events, skipped } = await readAll(aiSdkImporter, file, { skipInvalid: true });
    expect(events).toEqual([message({ role: 'system', content: 'ok', label: `${file}#0` })]);
    expect(skipped.map((skip) => skip.details)).toEqual([
      { file, record: 'messages[1]', field: 'content.0.toolCallId' },
      { file, record: 'messages[2]', field: 'content' },
    ]);
  });
});
