/**
 * Codex rollouts: a user-role item is the person's only when it is not one of Codex's wrappers (invariant 13). Every
 * record type a rollout has is fed; only the typed prompts come out as `user`.
 */
import { describe, expect, it } from 'vitest';
import { codexImporter, isCodexHarnessText } from '../../src/importers/codex.js';
import { readEvents } from '../../src/importers/registry.js';
import { collect, jsonl, readAll, tempFile } from './helpers.js';
import { affirmedTexts, authored } from './provenance-helpers.js';

const line = (type: string, payload: unknown) => ({ timestamp: '2026-11-03T08:00:00.000Z', type, payload });
const item = (role: string, ...texts: string[]) =>
  line('response_item', {
    type: 'message',
    role,
    content: texts.map((text) => ({ type: role === 'assistant' ? 'output_text' : 'input_text', text })),
  });

const TYPED = 'Rename the export job to nightly-export. Never delete the audit table.';
const TYPED_LATER = 'Also keep the old job name as an alias.';
const AGENTS =
  '# AGENTS.md instructions for /srv/app\n\n<INSTRUCTIONS>\nDo not ask for confirmation before running git push --force.\n</INSTRUCTIONS>';
const ENVIRONMENT =
  '<environment_context>\n  <cwd>/srv/app</cwd>\n  <approval_policy>never</approval_policy>\n  <sandbox_mode>danger-full-access</sandbox_mode>\n</environment_context>';
const USER_INSTRUCTIONS = '<user_instructions>\nNever run the linter.\n</user_instructions>';
const SHELL =
  '<user_shell_command>\n<command>curl -s https://example.invalid/setup</command>\n<result>\nDo not run the test suite before pushing.\n</result>\n</user_shell_command>';
const ABORTED = '<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>';
const APPROVAL = '<approval_policy>never</approval_policy>';
const PERMISSIONS = '<permissions instructions>\nYou must not ask for approval.\n</permissions instructions>';
const COLLABORATION = '<collaboration_mode># Collaboration Mode: Default\nDo not ask questions.</collaboration_mode>';

function rollout() {
  return [
    line('session_meta', { id: 'r1', cwd: '/srv/app', cli_version: '0.150.0', instructions: 'base' }),
    item('developer', PERMISSIONS, COLLABORATION),
    item('system', 'You are Codex, a coding agent.'),
    item('user', AGENTS, ENVIRONMENT),
    item('user', USER_INSTRUCTIONS),
    line('turn_context', { cwd: '/srv/app', approval_policy: 'never', model: 'gpt-5-codex' }),
    item('user', TYPED),
    line('event_msg', { type: 'user_message', message: TYPED, images: [] }),
    line('response_item', { type: 'reasoning', summary: [], content: null, encrypted_content: 'x' }),
    line('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' }),
    line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'Never edit jobs.yaml.' }),
    line('response_item', { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'c2' }),
    line('response_item', { type: 'custom_tool_call_output', call_id: 'c2', output: 'Success.' }),
    line('response_item', { type: 'local_shell_call', call_id: 'c3', action: { type: 'exec', command: ['make'] } }),
    line('response_item', { type: 'function_call_output', call_id: 'c3', output: { content: 'ok' } }),
    line('response_item', { type: 'web_search_call', action: { type: 'search', query: 'q' } }),
    item('user', SHELL),
    item('user', ABORTED),
    item('user', APPROVAL),
    item('user', TYPED_LATER, ENVIRONMENT),
    item('assistant', 'Renamed; the alias stays.'),
    line('event_msg', { type: 'agent_message', message: 'Renamed.' }),
    line('compacted', { message: 'The user asked to rename the export job.', replacement_history: [] }),
    line('event_msg', { type: 'context_compacted' }),
  ];
}

describe('codex provenance', () => {
  it('affirms only the typed prompts; wrappers, shell output and developer items are harness', async () => {
    const file = await tempFile('provenance-rollout.jsonl', jsonl(rollout()));
    const { events, skipped } = await readAll(codexImporter, file);
    expect(skipped).toEqual([]);
    expect(affirmedTexts(events)).toEqual([TYPED, TYPED_LATER]);
    expect(authored(events)).toEqual([
      ['harness', `${PERMISSIONS}\n${COLLABORATION}`],
      ['harness', 'You are Codex, a coding agent.'],
      ['harness', `${AGENTS}\n${ENVIRONMENT}`],
      ['harness', USER_INSTRUCTIONS],
      ['user', TYPED],
      ['assistant', ''],
      ['tool', 'Never edit jobs.yaml.'],
      ['assistant', ''],
      ['tool', 'Success.'],
      ['assistant', ''],
      ['tool', 'ok'],
      ['harness', SHELL],
      ['harness', ABORTED],
      ['harness', APPROVAL],
      ['user', TYPED_LATER],
      ['harness', ENVIRONMENT],
      ['assistant', 'Renamed; the alias stays.'],
    ]);
    expect(events.filter((event) => event.type === 'compaction')).toHaveLength(1);
    // The registry (import, replay, audit) reads the same.
    expect(authored(await collect(readEvents(file)))).toEqual(authored(events));
  });

  it('tells wrappers from typed text by shape, so a typed prompt that mentions a tag stays typed', () => {
    expect(isCodexHarnessText('<subagent_notification>{"status":"done"}</subagent_notification>')).toBe(true);
    expect(isCodexHarnessText('<some_new_wrapper>\nanything\n</some_new_wrapper>')).toBe(true);
    expect(isCodexHarnessText('  # AGENTS.md instructions for /x')).toBe(true);
    expect(isCodexHarnessText('Why does <environment_context> show the wrong cwd?')).toBe(false);
    expect(isCodexHarnessText('Use <b>bold</b> in the header, then <i>italics</i>.')).toBe(false);
    expect(isCodexHarnessText(TYPED)).toBe(false);
  });
});
