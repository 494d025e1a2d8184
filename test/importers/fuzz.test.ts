/**
 * Light fuzzing: random and half-valid records never make an importer fail with anything but
 * a TranscriptParseError, `skipInvalid` never fails on a JSONL line, and every emitted
 * message is a valid transcript message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TranscriptParseError } from '../../src/errors.js';
import type { Importer } from '../../src/importers/events.js';
import { importerFor } from '../../src/importers/registry.js';
import { validateMessage } from '../../src/ingest/messages.js';
import { collect, tempFile } from './helpers.js';

const junk = fc.jsonValue({ maxDepth: 2 });
const text = fc.oneof(fc.string(), junk);
const optional = { requiredKeys: [] as never[] };
const anthropicBlock = fc.record(
  {
    type: fc.constantFrom('text', 'tool_use', 'tool_result', 'thinking', 'image', 'other'),
    text,
    id: text,
    name: text,
    input: junk,
    tool_use_id: text,
    content: fc.oneof(fc.string(), fc.array(junk)),
    is_error: junk,
  },
  optional,
);
const anthropicContent = fc.oneof(fc.string(), fc.array(anthropicBlock, { maxLength: 4 }), junk);

const claudeCodeRecord = fc.record(
  {
    type: fc.constantFrom('user', 'assistant', 'system', 'summary', 'progress', 'queue-operation'),
    uuid: text,
    sessionId: fc.string(),
    version: text,
    subtype: fc.constantFrom('compact_boundary', 'turn_duration'),
    isCompactSummary: fc.boolean(),
    isMeta: junk,
    message: fc.oneof(fc.record({ role: text, content: anthropicContent }, optional), junk),
  },
  optional,
);
const codexRecord = fc.record(
  {
    timestamp: fc.string(),
    type: fc.constantFrom('session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted'),
    payload: fc.oneof(
      fc.record(
        {
          type: fc.constantFrom(
            'message',
            'function_call',
            'function_call_output',
            'custom_tool_call',
            'custom_tool_call_output',
            'local_shell_call',
            'reasoning',
          ),
          role: fc.constantFrom('user', 'assistant', 'developer', 'tool'),
          content: fc.oneof(fc.string(), fc.array(fc.record({ type: fc.string(), text }, optional))),
          name: text,
          arguments: text,
          input: text,
          call_id: text,
          output: junk,
          action: junk,
          message: text,
          cli_version: text,
        },
        optional,
      ),
      junk,
    ),
  },
  optional,
);
const openAiLike = fc.record(
  {
    role: fc.constantFrom('system', 'user', 'assistant', 'tool', 'exit', 'developer', 'robot'),
    content: fc.oneof(fc.string(), fc.array(fc.record({ type: fc.string(), text }, optional)), junk),
    tool_calls: fc.array(
      fc.record(
        { id: text, name: text, arguments: junk, function: fc.record({ name: text, arguments: junk }, optional) },
        optional,
      ),
      { maxLength: 2 },
    ),
    tool_call_id: text,
    tool_call_ids: junk,
  },
  optional,
);
const trajectory = fc.record(
  {
    instance_id: text,
    messages: fc.oneof(fc.array(openAiLike, { maxLength: 4 }), junk),
    history: fc.array(openAiLike, { maxLength: 3 }),
    trajectory: fc.array(fc.record({ response: text, thought: text, action: text, observation: text }, optional), {
      maxLength: 3,
    }),
    info: junk,
  },
  optional,
);
const aiSdkPart = fc.record(
  {
    type: fc.constantFrom('text', 'reasoning', 'image', 'file', 'tool-call', 'tool-result', 'tool-approval-request'),
    text,
    toolCallId: text,
    toolName: text,
    input: junk,
    args: junk,
    output: fc.oneof(
      fc.record(
        {
          type: fc.constantFrom('text', 'json', 'error-text', 'content', 'execution-denied'),
          value: fc.oneof(junk, fc.array(fc.record({ type: fc.constantFrom('text', 'media'), text }, optional))),
          reason: text,
        },
        optional,
      ),
      junk,
    ),
    result: junk,
    filename: text,
    mediaType: text,
  },
  optional,
);
const aiSdkMessage = fc.record(
  {
    role: fc.constantFrom('system', 'user', 'assistant', 'tool', 'robot'),
    content: fc.oneof(fc.string(), fc.array(aiSdkPart, { maxLength: 3 }), junk),
  },
  optional,
);
const locomoTurn = fc.record(
  { speaker: fc.constantFrom('A', 'B', 'C'), dia_id: text, text, blip_caption: text },
  optional,
);
const locomoSample = fc.record(
  {
    sample_id: text,
    conversation: fc.oneof(
      fc.record(
        {
          speaker_a: fc.constant('A'),
          speaker_b: text,
          session_1: fc.oneof(fc.array(locomoTurn, { maxLength: 3 }), junk),
          session_02: fc.array(locomoTurn, { maxLength: 2 }),
          session_1_date_time: text,
        },
        optional,
      ),
      junk,
    ),
    qa: junk,
  },
  optional,
);

function messagesAreValid(events: Awaited<ReturnType<typeof collect>>): void {
  for (const event of events as { type: string; message?: Parameters<typeof validateMessage>[0] }[])
    if (event.type === 'message') validateMessage(event.message!, 'fuzz');
}

async function outcome(importer: Importer, file: string, skipInvalid: boolean): Promise<'ok' | 'parse-error'> {
  try {
    messagesAreValid(await collect(importer.read(file, { skipInvalid })));
    return 'ok';
  } catch (error) {
    if (TranscriptParseError.isInstance(error)) return 'parse-error';
    throw error;
  }
}

const line = (record: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: record.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: junk.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string() },
  );

describe('importers under random input', () => {
  const jsonlCases: [string, fc.Arbitrary<unknown>][] = [
    ['claude-code', claudeCodeRecord],
    ['codex', codexRecord],
    ['swe-agent', trajectory],
    ['jsonl', openAiLike],
  ];
  for (const [format, record] of jsonlCases) {
    it(`${format}: JSONL lines fail only with TranscriptParseError, and never under skipInvalid`, async () => {
      const importer = await importerFor(format as Importer['format']);
      await fc.assert(
        fc.asyncProperty(fc.array(line(record), { minLength: 1, maxLength: 6 }), async (lines) => {
          const file = await tempFile(
            `fuzz-${format}.jsonl`,
            `${JSON.stringify({ instance_id: 'x', messages: [] })}\n${lines.join('\n')}\n`,
          );
          await outcome(importer, file, false);
          expect(await outcome(importer, file, true)).toBe('ok');
        }),
        { numRuns: 150 },
      );
    });
  }

  const jsonCases: [string, fc.Arbitrary<unknown>][] = [
    [
      'anthropic',
      fc.oneof(
        fc.record(
          {
            system: anthropicContent,
            messages: fc.array(
              fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: anthropicContent }, optional),
              { maxLength: 4 },
            ),
          },
          optional,
        ),
        junk,
      ),
    ],
    ['ai-sdk', fc.oneof(fc.array(aiSdkMessage, { maxLength: 5 }), junk)],
    ['locomo', fc.oneof(fc.array(locomoSample, { maxLength: 2 }), junk)],
    ['swe-agent', fc.oneof(trajectory, junk)],
  ];
  for (const [format, value] of jsonCases) {
    it(`${format}: whole JSON values fail only with TranscriptParseError`, async () => {
      const importer = await importerFor(format as Importer['format']);
      await fc.assert(
        fc.asyncProperty(value, async (json) => {
          const file = await tempFile(`fuzz-${format}.json`, JSON.stringify(json, null, 2));
          await outcome(importer, file, false);
          await outcome(importer, file, true);
        }),
        { numRuns: 150 },
      );
    });
  }
});
