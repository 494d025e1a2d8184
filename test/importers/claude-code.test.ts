import { describe, expect, it } from 'vitest';
import { TranscriptParseError } from '../../src/errors.js';
import { claudeCodeImporter } from '../../src/importers/claude-code.js';
import { errorOf, fixture, jsonl, message, readAll, tempFile } from './helpers.js';

const user = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  uuid,
  sessionId: 's',
  version: '2.1.0',
  message: { role: 'user', content },
  ...extra,
});

describe('claude-code importer', () => {
  it('reads a session: messages, tool results, one compaction, UI records skipped', async () => {
    const { events, skipped } = await readAll(claudeCodeImporter, fixture('claude-code-session.jsonl'));
    expect(skipped).toEqual([]);
    expect(events).toEqual([
      message({
        role: 'user',
        content:
          'The /orders endpoint returns 429 under load. Raise RATE_LIMIT_PER_MIN to 600 in config/limits.toml, but never touch the billing service.',
        label: 'u-01',
      }),
      message({ role: 'assistant', content: 'Let me look at the current limits.', label: 'a-03' }),
      message({
        role: 'assistant',
        content: '',
        toolCalls: [
          {
            id: 'toolu_01',
            name: 'Bash',
            arguments: '{"command":"cat config/limits.toml","description":"Show limits"}',
          },
        ],
        label: 'a-04',
      }),
      message({
        role: 'tool',
        content: '[orders]\nRATE_LIMIT_PER_MIN = 120\n',
        toolCallId: 'toolu_01',
        toolName: 'Bash',
        label: 'u-02',
      }),
      message({
        role: 'assistant',
        content: '',
        toolCalls: [
          {
            id: 'toolu_02',
            name: 'Edit',
            arguments: '{"file_path":"config/limits.toml","old_string":"= 120","new_string":"= 600"}',
          },
          { id: 'toolu_03', name: 'Bash', arguments: '{"command":"npm test -- limits"}' },
        ],
        label: 'a-05',
      }),
      message({
        role: 'tool',
        content: 'The file config/limits.toml has been updated.',
        toolCallId: 'toolu_02',
        toolName: 'Edit',
        label: 'u-03',
      }),
      message({
        role: 'tool',
        content: 'Exit code 1\nFAIL test/limits.test.ts',
        toolCallId: 'toolu_03',
        toolName: 'Bash',
        label: 'u-03',
      }),
      message({
        role: 'user',
        content: '<system-reminder>\nThe user opened config/staging.toml.\n</system-reminder>',
        label: 'u-04',
        source: 'harness',
      }),
      {
        type: 'compaction',
        summary:
          'This session is being continued from a previous conversation that ran out of context. Summary:\n1. RATE_LIMIT_PER_MIN raised from 120 to 600 in config/limits.toml.\n2. Do not touch the billing service.\n3. test/limits.test.ts fails.',
        summarizer: { name: 'claude-code', version: '2.1.40' },
        label: 'c-01',
      },
      message({ role: 'user', content: 'Fix the failing test.\n[image]', label: 'u-05' }),
      message({ role: 'assistant', content: 'The test expects 120; I will update it to 600.', label: 'a-06' }),
    ]);
  });

  it('takes the compaction version from the boundary when the summary has none, and ignores a boundary without summary', async () => {
    const file = await tempFile(
      'boundary.jsonl',
      jsonl([
        {
          type: 'system',
          subtype: 'compact_boundary',
          uuid: 'b1',
          sessionId: 's',
          version: '2.0.9',
          content: 'Conversation compacted',
        },
        {
          type: 'user',
          uuid: 'c1',
          sessionId: 's',
          isCompactSummary: true,
          message: { role: 'user', content: [{ type: 'text', text: 'Earlier: chose port 8443.' }] },
        },
        { type: 'system', subtype: 'compact_boundary', uuid: 'b2', sessionId: 's', version: '2.0.9' },
        user('u1', 'go on'),
      ]),
    );
    const { events } = await readAll(claudeCodeImporter, file);
    expect(events).toEqual([
      {
        type: 'compaction',
        summary: 'Earlier: chose port 8443.',
        summarizer: { name: 'claude-code', version: '2.0.9' },
        label: 'c1',
      },
      message({ role: 'user', content: 'go on', label: 'u1' }),
    ]);
  });

  it('emits tool results before the text of a mixed user record, and labels records without uuid by line', async () => {
    const file = await tempFile(
      'mixed.jsonl',
      jsonl([
        {
          type: 'user',
          sessionId: 's',
          message: {
            content: [
              { type: 'text', text: 'also this' },
              { type: 'tool_result', tool_use_id: 't9', content: 'ok' },
            ],
          },
        },
      ]),
    );
    const { events } = await readAll(claudeCodeImporter, file);
    expect(events).toEqual([
      message({ role: 'tool', content: 'ok', toolCallId: 't9', toolName: undefined, label: `${file}:1` }),
      message({ role: 'user', content: 'also this', label: `${file}:1` }),
    ]);
  });

  it('names file, line and field of a malformed record; skipInvalid skips and reports it', async () => {
    const file = await tempFile(
      'bad.jsonl',
      jsonl([
        user('u1', 'hello'),
        user('u2', [{ type: 'tool_use', name: 'Bash', input: {} }]),
        { type: 'assistant', uuid: 'a1' },
      ]) + '{"type": "user", oops\n',
    );
    const error = await errorOf(claudeCodeImporter, file);
    expect(TranscriptParseError.isInstance(error)).toBe(true);
    expect(error.message).toContain(`${file}:2: field "message.content.0.id"`);
    expect(error.message).toContain('--skip-invalid');
    const { events, skipped } = await readAll(claudeCodeImporter, file, { skipInvalid: true });
    expect(events).toEqual([message({ role: 'user', content: 'hello', label: 'u1' })]);
    expect(skipped.map((skip) => skip.details)).toEqual([
      { file, line: 2, field: 'message.content.0.id' },
      { file, line: 3, field: 'message' },
      { file, line: 4, field: '(line)' },
    ]);
  });

  it('detects Claude Code heads, including one cut mid-line, and not other JSONL', () => {
    const record = JSON.stringify(user('u1', 'hi'));
    expect(claudeCodeImporter.detect(record + '\n', 'x.jsonl')).toBe(true);
    expect(
      claudeCodeImporter.detect(
        '{"parentUuid":null,"isSidechain":false,"sessionId":"s","message":{"content":"' + 'x'.repeat(100),
        'x.jsonl',
      ),
    ).toBe(true);
    expect(claudeCodeImporter.detect('{"role":"user","content":"hi"}\n', 'x.jsonl')).toBe(false);
  });
});
