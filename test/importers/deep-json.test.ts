import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usedHandles } from '../../src/audit/handle-sets.js';
import { claudeCodeImporter } from '../../src/importers/claude-code.js';
import { codexImporter } from '../../src/importers/codex.js';
import { jsonText, jsonTextIterative } from '../../src/importers/json-text.js';
import { readTranscript } from '../../src/importers/read-transcript.js';
import { ingestClaudeCodeTranscript } from '../../src/integrations/claude-code/transcript-ingest.js';
import { createLedger } from '../../src/session/ledger.js';
import { createMemoryStore } from '../../src/stores/memory/memory-store.js';
import type { TranscriptEvent } from '../../src/importers/events.js';
import { collect, jsonl, readAll, tempFile } from './helpers.js';

/** `{"k":{"k":…{"k":"leaf"}…}}`, `depth` objects deep, as compact JSON text (what JSON.stringify writes). */
function nestedText(depth: number, leaf = '"db-2.inventory.internal"'): string {
  return '{"k":'.repeat(depth) + leaf + '}'.repeat(depth);
}

const DEPTH = 5000;

const toolUse = (uuid: string, input: string) =>
  `{"type":"assistant","uuid":"${uuid}","sessionId":"s","version":"2.1.0","message":{"role":"assistant","content":` +
  `[{"type":"tool_use","id":"t1","name":"Write","input":${input}}]}}`;
const userLine = (uuid: string, text: string) =>
  JSON.stringify({ type: 'user', uuid, sessionId: 's', version: '2.1.0', message: { role: 'user', content: text } });

function toolArguments(events: readonly TranscriptEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === 'message' ? (event.message.toolCalls ?? []).map((call) => call.arguments) : [],
  );
}

describe('deeply nested JSON values', () => {
  it('jsonText gives JSON.stringify text at any depth, and the loop agrees with JSON.stringify where both run', () => {
    expect(() => JSON.stringify(JSON.parse(nestedText(DEPTH)))).toThrow(RangeError);
    expect(jsonText(JSON.parse(nestedText(DEPTH)))).toBe(nestedText(DEPTH));
    const arrays = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(jsonText(JSON.parse(arrays))).toBe(arrays);
    const samples: unknown[] = [
      { a: [1, -0, 1e21, 'x"\u2028\ud800', null, true, { b: undefined, c: () => 1 }], '': {}, 'k"': [] },
      [undefined, Symbol('s'), new Date(0), { toJSON: (key: string) => `at ${key}` }, new Number(3), new String('s')],
      'plain',
      42,
      null,
      [[[]], {}],
    ];
    for (const sample of samples) expect(jsonTextIterative(sample)).toBe(JSON.stringify(sample));
    expect(jsonTextIterative(undefined)).toBeUndefined();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => jsonTextIterative(cycle)).toThrow(TypeError);
  });

  it('claude-code: a 5,000-deep tool input is stored verbatim and the lines after it are read', async () => {
    const file = await tempFile(
      'deep.jsonl',
      [toolUse('a1', nestedText(DEPTH)), userLine('u2', 'after it')].join('\n'),
    );
    const { events, skipped } = await readAll(claudeCodeImporter, file);
    expect(skipped).toEqual([]);
    expect(toolArguments(events)).toEqual([nestedText(DEPTH)]);
    expect(events.at(-1)).toMatchObject({ type: 'message', message: { role: 'user', content: 'after it' } });
  });

  it('codex and openai JSONL: deep tool arguments and outputs are stored verbatim', async () => {
    const codex = await tempFile(
      'deep-codex.jsonl',
      jsonl([{ type: 'session_meta', payload: { id: 's', cli_version: '0.1' } }]) +
        `{"type":"response_item","payload":{"type":"local_shell_call","call_id":"c1","action":${nestedText(DEPTH)}}}\n`,
    );
    const { events } = await readAll(codexImporter, codex);
    expect(toolArguments(events)).toEqual([nestedText(DEPTH)]);
    const openai = await tempFile(
      'deep-openai.jsonl',
      `{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":${nestedText(DEPTH)}}}]}\n`,
    );
    const messages = await collect(readTranscript(openai));
    expect(messages[0]?.toolCalls?.[0]?.arguments).toBe(nestedText(DEPTH));
  });

  it('audit: the string values of a deep tool call are read without recursion (its keys are not handles)', () => {
    const depth = 100_000;
    const used = usedHandles({
      role: 'assistant',
      content: '',
      toolCalls: [
        {
          id: 'c',
          name: 'f',
          arguments: '{"/srv/key.conf":'.repeat(depth) + '"db-2.inventory.internal"' + '}'.repeat(depth),
        },
      ],
    });
    expect(used.map((handle) => handle.text)).toContain('db-2.inventory.internal');
    expect(used.map((handle) => handle.text)).not.toContain('/srv/key.conf');
  });

  it('the Stop hook ingests a deep line and every line after it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cl-deep-'));
    try {
      const transcript = join(directory, 's.jsonl');
      await writeFile(
        transcript,
        [toolUse('a1', nestedText(DEPTH)), userLine('u2', 'use port 7443')].join('\n') + '\n',
      );
      const ledger = createLedger({ store: createMemoryStore() });
      const logged: string[] = [];
      const result = await ingestClaudeCodeTranscript({
        ledger,
        sessionId: 's',
        transcriptPath: transcript,
        stateFile: join(directory, 'state.json'),
        log: (line) => logged.push(line),
      });
      expect(logged).toEqual([]);
      expect(result.messages).toBe(2);
      const texts = (await ledger.store.occurrences('s')).map((occurrence) => occurrence.span.text);
      expect(texts.join('')).toContain('use port 7443');
      await ledger.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
