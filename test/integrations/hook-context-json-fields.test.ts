/**
 * The field names of a JSON answer (issue 38: the injected context keeps what the agent needs next): a name seen only
 * as the key of a JSON object (`"avatar_url":`) in a command's output is part of that answer, ranked with the command
 * answers after every other candidate of the SessionStart context.
 */
import { describe, expect, it } from 'vitest';
import { commandAnswers } from '../../src/integrations/claude-code/hook-context-output.js';
import type { OutputSpan } from '../../src/integrations/claude-code/hook-context-output.js';
import type { Handle } from '../../src/types.js';
import { handleAt } from '../helpers.js';
import { contextAfterCommandRuns } from './command-runs-session.js';

/** `handle` stored again in span `spanId`. */
const occurrence = (handle: Handle, spanId: string): Handle => ({ ...handle, spanId });

const API_ANSWER = '[{"number": 950, "avatar_url": "https://avatars.example.com/u/1", "updated_at" : "2026-06-21"}]';

describe('commandAnswers and JSON field names', () => {
  const spans = new Map<string, OutputSpan>([
    ['api', { kind: 'tool-result', toolName: 'exec_command', text: API_ANSWER }],
    ['code', { kind: 'tool-result', toolName: 'exec_command', text: 'const avatar_url = user.avatar;' }],
    ['call', { kind: 'tool-call', toolName: 'exec_command', text: "gh api issues --jq '.[].updated_at'" }],
    ['task', { kind: 'tool-result', toolName: 'Task', text: '{"review_state": "done"}' }],
    ['blind', { kind: 'tool-result', toolName: 'exec_command' }],
  ]);
  const none = () => undefined;

  it('selects a name only ever seen as the key of a JSON object in the output of a command', () => {
    const avatar = handleAt('avatar_url');
    expect(commandAnswers([avatar], [occurrence(avatar, 'api')], spans, none).has(avatar)).toBe(true);
  });

  it('keeps a field name the agent wrote itself, e.g. in a jq filter', () => {
    const updated = handleAt('updated_at');
    const occurrences = [occurrence(updated, 'api'), occurrence(updated, 'call')];
    expect(commandAnswers([updated], occurrences, spans, none).size).toBe(0);
  });

  it('keeps a name the output uses otherwise, one read from a file, a subagent report and an unknown text', () => {
    const avatar = handleAt('avatar_url');
    expect(commandAnswers([avatar], [occurrence(avatar, 'code')], spans, none).size).toBe(0);
    const fromFile = (handle: Handle) => (handle === avatar ? 'fixtures/user.json' : undefined);
    expect(commandAnswers([avatar], [occurrence(avatar, 'api')], spans, fromFile).size).toBe(0);
    const state = handleAt('review_state');
    expect(commandAnswers([state], [occurrence(state, 'task')], spans, none).size).toBe(0);
    expect(commandAnswers([avatar], [occurrence(avatar, 'blind')], spans, none).size).toBe(0);
  });

  it('does not take a quoted name followed by anything but a colon for a key', () => {
    const quoted = new Map<string, OutputSpan>([
      ['list', { kind: 'tool-result', text: 'labels: ["needs_triage", "good_first_issue"]' }],
    ]);
    const label = handleAt('needs_triage');
    expect(commandAnswers([label], [occurrence(label, 'list')], quoted, none).size).toBe(0);
  });
});

describe('buildHookContext and JSON field names', () => {
  it('ranks the field names of an API answer last, after a name the agent read in a file', async () => {
    const answer = (run: number) =>
      `[{"number": ${run}, "subscriptions_url": "x", "performed_via_github_app": null, "html_url": "y"}]`;
    const context = await contextAfterCommandRuns({
      sessionId: 'json-fields-1',
      intro: (run) => `Listing the issues (${run}).`,
      command: (run) => `gh api issues?page=${run}`,
      output: answer,
      summary: 'Triaging the issues and reading the project registry.',
    });
    const ranked = (context?.ranked ?? []).map((handle) => handle.text);
    const fields = ['subscriptions_url', 'performed_via_github_app', 'html_url'].filter((name) =>
      ranked.includes(name),
    );
    expect(fields.length).toBeGreaterThan(0);
    for (const name of fields) expect(ranked.indexOf(name)).toBeGreaterThan(ranked.indexOf('loadProjectRegistry'));
    expect(ranked.indexOf('loadProjectRegistry')).toBeGreaterThanOrEqual(0);
  });
});
