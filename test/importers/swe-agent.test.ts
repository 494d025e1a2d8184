import { describe, expect, it } from 'vitest';
import { TranscriptParseError } from '../../src/errors.js';
import { sweAgentImporter } from '../../src/importers/swe-agent.js';
import { errorOf, fixture, jsonl, message, readAll, tempFile } from './helpers.js';

describe('swe-agent importer', () => {
  it('reads JSONL of trajectories: a session per line, flat and OpenAI-style tool calls, exit skipped', async () => {
    const file = fixture('swe-agent-trajectories.jsonl');
    const at = (line: number, index: number) => `${file}:${line}#${index}`;
    const { events, skipped } = await readAll(sweAgentImporter, file);
    expect(skipped).toEqual([]);
    expect(events).toEqual([
      { type: 'session', sessionId: 'acme__widgets-101', label: `${file}:1` },
      message({
        role: 'system',
        content: 'You are a helpful assistant that can interact with a computer shell.',
        label: at(1, 0),
      }),
      message({
        role: 'user',
        content: '<pr_description>\nwidget.size() returns inches instead of mm\n</pr_description>',
        label: at(1, 1),
      }),
      message({
        role: 'assistant',
        content: 'Find the size function.',
        toolCalls: [{ id: 'call_w1', name: 'bash', arguments: '{"command": "grep -rn \'def size\' widgets"}' }],
        label: at(1, 2),
      }),
      message({
        role: 'tool',
        content: '<returncode>0</returncode>\n<output>\nwidgets/size.py:12:def size(self):\n</output>',
        toolCallId: 'call_w1',
        toolName: 'bash',
        label: at(1, 3),
      }),
      message({
        role: 'assistant',
        content: 'Done.',
        toolCalls: [
          { id: 'call_w2', name: 'bash', arguments: '{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}' },
        ],
        label: at(1, 4),
      }),
      message({
        role: 'tool',
        content: '<returncode>0</returncode>',
        toolCallId: 'call_w2',
        toolName: 'bash',
        label: at(1, 5),
      }),
      { type: 'session', sessionId: 'acme__gears-7', label: `${file}:2` },
      message({ role: 'system', content: 'You are an autonomous programmer.', label: at(2, 0) }),
      message({ role: 'user', content: 'Fix gear ratio rounding.', label: at(2, 1) }),
      message({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_g1', name: 'bash', arguments: '{"command":"pytest -q tests/test_ratio.py"}' }],
        label: at(2, 2),
      }),
      message({ role: 'tool', content: '1 failed', toolCallId: 'call_g1', toolName: 'bash', label: at(2, 3) }),
    ]);
  });

  it('reads a SWE-agent .traj from its history (tool_call_ids, content parts)', async () => {
    const file = fixture('swe-agent-history.traj');
    const { events } = await readAll(sweAgentImporter, file);
    expect(events).toEqual([
      { type: 'session', sessionId: 'swe-agent-history', label: file },
      message({ role: 'system', content: 'SETTING: You are an autonomous programmer.', label: `${file}#0` }),
      message({ role: 'user', content: "We're solving this issue: parser drops trailing commas.", label: `${file}#1` }),
      message({
        role: 'assistant',
        content: 'Let me list the files.',
        toolCalls: [{ id: 'call_h1', name: 'bash', arguments: '{"command":"ls"}' }],
        label: `${file}#2`,
      }),
      message({ role: 'tool', content: 'setup.py src', toolCallId: 'call_h1', toolName: 'bash', label: `${file}#3` }),
    ]);
  });

  it('reads a mini-swe-agent .traj.json and a .traj with only trajectory steps', async () => {
    const mini = fixture('mini-swe-agent.traj.json');
    expect((await readAll(sweAgentImporter, mini)).events).toEqual([
      { type: 'session', sessionId: 'mini-swe-agent', label: mini },
      message({ role: 'system', content: 'You are a helpful assistant.', label: `${mini}#0` }),
      message({ role: 'user', content: 'Please solve: off-by-one in paginate().', label: `${mini}#1` }),
      message({
        role: 'assistant',
        content: 'THOUGHT: inspect.\n\n```bash\nsed -n 1,40p app/paginate.py\n```',
        label: `${mini}#2`,
      }),
      message({
        role: 'user',
        content: '<returncode>0</returncode>\n<output>def paginate(items, page):\n</output>',
        label: `${mini}#3`,
        source: 'harness',
      }),
    ]);
    const steps = fixture('swe-agent-steps.traj');
    expect((await readAll(sweAgentImporter, steps)).events).toEqual([
      { type: 'session', sessionId: 'swe-agent-steps', label: steps },
      message({ role: 'assistant', content: 'Check tests.\npytest -x', label: `${steps}#0` }),
      message({ role: 'user', content: '3 passed', label: `${steps}#0`, source: 'harness' }),
      message({ role: 'assistant', content: 'submit', label: `${steps}#1` }),
    ]);
  });

  it('names file, line and field of bad trajectories and messages; skipInvalid skips them', async () => {
    const file = await tempFile(
      'bad.jsonl',
      jsonl([
        {
          instance_id: 'a',
          messages: [
            { role: 'user', content: 'ok' },
            { role: 'robot', content: 'x' },
          ],
        },
        { instance_id: 'b' },
        { instance_id: 'c', messages: [{ role: 'assistant', content: '', tool_calls: [{ name: 'bash' }] }] },
      ]),
    );
    const error = await errorOf(sweAgentImporter, file);
    expect(TranscriptParseError.isInstance(error)).toBe(true);
    expect(error.message).toContain(`${file}:1: field "messages.1.role"`);
    const { events, skipped } = await readAll(sweAgentImporter, file, { skipInvalid: true });
    expect(events).toEqual([
      { type: 'session', sessionId: 'a', label: `${file}:1` },
      message({ role: 'user', content: 'ok', label: `${file}:1#0` }),
      { type: 'session', sessionId: 'c', label: `${file}:3` },
    ]);
    expect(skipped.map((skip) => skip.details)).toEqual([
      { file, line: 1, field: 'messages.1.role' },
      { file, line: 2, field: 'messages' },
      { file, line: 3, field: 'messages.0.tool_calls.0' },
    ]);
  });

  it('keeps reading JSONL when the first line is corrupt, under skipInvalid', async () => {
    const file = await tempFile(
      'corrupt-first.jsonl',
      '{"instance_id": "a", "messa\n' + jsonl([{ instance_id: 'b', messages: [{ role: 'user', content: 'hi' }] }]),
    );
    const { events, skipped } = await readAll(sweAgentImporter, file, { skipInvalid: true });
    expect(events).toEqual([
      { type: 'session', sessionId: 'b', label: `${file}:2` },
      message({ role: 'user', content: 'hi', label: `${file}:2#0` }),
    ]);
    expect(skipped.map((skip) => skip.details)).toEqual([{ file, line: 1, field: '(line)' }]);
  });
});
