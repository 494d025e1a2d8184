import { describe, expect, it } from 'vitest';
import { TranscriptParseError } from '../../src/errors.js';
import { codexImporter } from '../../src/importers/codex.js';
import { errorOf, fixture, jsonl, message, readAll, tempFile } from './helpers.js';

const line = (type: string, payload: unknown) => ({ timestamp: '2026-04-10T14:00:00.000Z', type, payload });

describe('codex importer', () => {
  it('reads a rollout: messages, function / custom / local shell calls and outputs, one compaction', async () => {
    const file = fixture('codex-rollout.jsonl');
    const at = (n: number) => `${file}:${n}`;
    const { events, skipped } = await readAll(codexImporter, file);
    expect(skipped).toEqual([]);
    expect(events).toEqual([
      message({
        role: 'system',
        content: '<permissions instructions>workspace-write</permissions instructions>',
        label: at(2),
        source: 'harness',
      }),
      message({
        role: 'user',
        content: '<environment_context>\n  <cwd>/home/dev/inventory</cwd>\n</environment_context>',
        label: at(3),
        source: 'harness',
      }),
      message({ role: 'user', content: 'Why does `make sync` fail with ECONNREFUSED 10.0.4.17:5432?', label: at(4) }),
      message({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_k1', name: 'shell', arguments: '{"command":["bash","-lc","grep -n DB_HOST .env"]}' }],
        label: at(8),
      }),
      message({
        role: 'tool',
        content: '{"output":"3:DB_HOST=10.0.4.17\\n","metadata":{"exit_code":0}}',
        toolCallId: 'call_k1',
        toolName: 'shell',
        label: at(9),
      }),
      message({
        role: 'assistant',
        content: '',
        toolCalls: [
          {
            id: 'call_k2',
            name: 'apply_patch',
            arguments:
              '*** Begin Patch\n*** Update File: .env\n-DB_HOST=10.0.4.17\n+DB_HOST=db.internal\n*** End Patch',
          },
        ],
        label: at(10),
      }),
      message({
        role: 'tool',
        content: 'Success. Updated the following files:\nM .env',
        toolCallId: 'call_k2',
        toolName: 'apply_patch',
        label: at(11),
      }),
      message({
        role: 'assistant',
        content: '',
        toolCalls: [
          {
            id: 'call_k3',
            name: 'local_shell',
            arguments: '{"type":"exec","command":["make","sync"],"timeout_ms":60000}',
          },
        ],
        label: at(12),
      }),
      message({
        role: 'tool',
        content: 'sync ok: 412 rows',
        toolCallId: 'call_k3',
        toolName: 'local_shell',
        label: at(13),
      }),
      message({
        role: 'assistant',
        content: 'DB_HOST pointed at a retired replica; it now uses db.internal and `make sync` passes.',
        label: at(15),
      }),
      {
        type: 'compaction',
        summary:
          'User asked why make sync failed (ECONNREFUSED 10.0.4.17:5432). DB_HOST in .env changed to db.internal; sync passes.',
        summarizer: { name: 'codex', version: '0.58.0' },
        label: at(16),
      },
      message({ role: 'user', content: 'Now add a retry.', label: at(18) }),
    ]);
  });

  it('names file, line and field of malformed lines; skipInvalid skips and reports them', async () => {
    const file = await tempFile(
      'rollout.jsonl',
      jsonl([
        line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }),
        line('response_item', { type: 'function_call', name: 'shell', arguments: '{}' }),
        line('compacted', { summary: 'wrong key' }),
        { type: 'response_item' },
        line('some_future_type', 42),
      ]),
    );
    const error = await errorOf(codexImporter, file);
    expect(TranscriptParseError.isInstance(error)).toBe(true);
    expect(error.message).toContain(`${file}:2: field "payload.call_id"`);
    const { events, skipped } = await readAll(codexImporter, file, { skipInvalid: true });
    expect(events).toEqual([message({ role: 'user', content: 'hi', label: `${file}:1` })]);
    expect(skipped.map((skip) => skip.details)).toEqual([
      { file, line: 2, field: 'payload.call_id' },
      { file, line: 3, field: 'payload.message' },
      { file, line: 4, field: 'payload' },
    ]);
  });

  it('detects rollout heads and not Claude Code or OpenAI JSONL', () => {
    expect(codexImporter.detect(JSON.stringify(line('session_meta', { id: 'x' })) + '\n', 'r.jsonl')).toBe(true);
    expect(codexImporter.detect('{"role":"user","content":"hi"}\n', 'r.jsonl')).toBe(false);
    expect(
      codexImporter.detect('{"type":"user","uuid":"u","sessionId":"s","message":{"content":"hi"}}\n', 'r.jsonl'),
    ).toBe(false);
  });
});
