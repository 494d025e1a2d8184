import { describe, expect, it } from 'vitest';
import { TranscriptParseError } from '../../src/errors.js';
import { anthropicImporter } from '../../src/importers/anthropic.js';
import { errorOf, fixture, message, readAll, tempFile } from './helpers.js';

describe('anthropic importer', () => {
  it('reads a request body: system blocks, tool use and results, thinking left out', async () => {
    const file = fixture('anthropic-request.json');
    const { events, skipped } = await readAll(anthropicImporter, file);
    expect(skipped).toEqual([]);
    expect(events).toEqual([
      message({
        role: 'system',
        content: 'You are a release assistant for the checkout team.\nNever deploy on Fridays.',
        label: `${file}#system`,
      }),
      message({ role: 'user', content: 'Is build 8812 green?', label: `${file}#0` }),
      message({
        role: 'assistant',
        content: 'Checking build 8812.',
        toolCalls: [{ id: 'toolu_b1', name: 'get_build', arguments: '{"id":8812}' }],
        label: `${file}#1`,
      }),
      message({
        role: 'tool',
        content: 'build 8812: passed (14m02s)',
        toolCallId: 'toolu_b1',
        toolName: 'get_build',
        label: `${file}#2`,
      }),
      message({ role: 'user', content: 'And the canary?', label: `${file}#2` }),
      message({
        role: 'assistant',
        content: 'Build 8812 passed in 14m02s. The canary has not started yet.',
        label: `${file}#3`,
      }),
    ]);
  });

  it('reads a bare message array; non-text blocks become placeholders', async () => {
    const file = fixture('anthropic-messages.json');
    const { events } = await readAll(anthropicImporter, file);
    expect(events).toEqual([
      message({ role: 'user', content: 'Summarise invoice INV-2231.\n[document]', label: `${file}#0` }),
      message({ role: 'assistant', content: 'INV-2231 totals 310.00 EUR.', label: `${file}#1` }),
    ]);
  });

  it('names file, message index and field of bad messages; skipInvalid skips them', async () => {
    const file = await tempFile(
      'bad.json',
      JSON.stringify({
        messages: [
          { role: 'user', content: 'ok' },
          { role: 'wizard', content: 'x' },
          { role: 'user', content: [{ type: 'tool_result' }] },
          { role: 'assistant', content: 7 },
        ],
      }),
    );
    const error = await errorOf(anthropicImporter, file);
    expect(TranscriptParseError.isInstance(error)).toBe(true);
    expect(error.message).toContain(`${file}: messages[1]: field "role"`);
    const { events, skipped } = await readAll(anthropicImporter, file, { skipInvalid: true });
    expect(events).toEqual([message({ role: 'user', content: 'ok', label: `${file}#0` })]);
    expect(skipped.map((skip) => skip.details)).toEqual([
      { file, record: 'messages[1]', field: 'role' },
      { file, record: 'messages[2]', field: 'content.0.tool_use_id' },
      { file, record: 'messages[3]', field: 'content' },
    ]);
  });

  it('names the line of a JSON syntax error, and rejects a body without messages', async () => {
    const broken = await tempFile('broken.json', '{\n  "messages": [\n    {"role": "user",, "content": "x"}\n  ]\n}\n');
    const syntax = await errorOf(anthropicImporter, broken);
    expect(syntax.details).toMatchObject({ file: broken, field: '(file)' });
    expect(syntax.details?.line).toBe(3);
    const empty = await tempFile('empty.json', '{"model": "claude"}');
    expect((await errorOf(anthropicImporter, empty)).message).toContain(`${empty}: (root): field "messages"`);
  });
});
