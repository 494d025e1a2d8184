/**
 * A command's answer (issue 38: the injected context keeps what the agent needs next): bindings and URLs seen only in
 * the output of a command, never in a file the agent read nor in anyone's own words, are ranked after every other
 * candidate of the SessionStart context.
 */
import { describe, expect, it } from 'vitest';
import { commandAnswers } from '../../src/integrations/claude-code/hook-context-output.js';
import type { OutputSpan } from '../../src/integrations/claude-code/hook-context-output.js';
import type { Handle } from '../../src/types.js';
import { handleAt } from '../helpers.js';
import { contextAfterCommandRuns } from './command-runs-session.js';

/** `handle` stored again in span `spanId`. */
const occurrence = (handle: Handle, spanId: string): Handle => ({ ...handle, spanId });

describe('commandAnswers', () => {
  const spans = new Map<string, OutputSpan>([
    ['status', { kind: 'tool-result' }],
    ['api', { kind: 'tool-result' }],
    ['config', { kind: 'tool-result' }],
    ['note', { kind: 'assistant' }],
    ['call', { kind: 'tool-call' }],
  ]);
  const row = handleAt('modified:   cmd/app/list.go', 'assignment');
  const avatar = handleAt('https://avatars.example.com/u/3115311?v=4', 'url');
  const setting = handleAt('retry_limit: 7', 'assignment');
  const repeated = handleAt('"status": "in_progress"', 'assignment');
  const link = handleAt('https://github.com/acme/app/pull/1510', 'url');
  const name = handleAt('loadProjectRegistry', 'identifier');
  const occurrences = [
    occurrence(row, 'status'),
    occurrence(avatar, 'api'),
    occurrence(setting, 'config'),
    occurrence(repeated, 'api'),
    occurrence(repeated, 'note'),
    occurrence(link, 'api'),
    occurrence(link, 'call'),
    occurrence(name, 'api'),
  ];
  const fileOf = (handle: Handle) => (handle === setting ? 'config/app.yaml' : undefined);
  const candidates = [row, avatar, setting, repeated, link, name];

  it('selects the bindings and URLs only ever seen in the output of a command', () => {
    expect([...commandAnswers(candidates, occurrences, spans, fileOf)].map((handle) => handle.text)).toEqual([
      'modified:   cmd/app/list.go',
      'https://avatars.example.com/u/3115311?v=4',
    ]);
  });

  it('keeps a binding read from a file, one the agent wrote too, a URL it passed to a tool, and every name', () => {
    const answers = commandAnswers(candidates, occurrences, spans, fileOf);
    for (const kept of [setting, repeated, link, name]) expect(answers.has(kept)).toBe(false);
  });

  it("counts what a subagent reported (Claude Code's Task or Agent tool) as said by an agent", () => {
    const location = handleAt('Location: `/repo/cmd/checkpoint.go:330-362`', 'assignment');
    const reported = new Map<string, OutputSpan>([
      ['task', { kind: 'tool-result', toolName: 'Task' }],
      ['agent', { kind: 'tool-result', toolName: 'Agent' }],
      ['bash', { kind: 'tool-result', toolName: 'Bash' }],
    ]);
    expect(commandAnswers([location], [occurrence(location, 'task')], reported, () => undefined).size).toBe(0);
    expect(commandAnswers([location], [occurrence(location, 'agent')], reported, () => undefined).size).toBe(0);
    expect(commandAnswers([location], [occurrence(location, 'bash')], reported, () => undefined).size).toBe(1);
  });

  it('counts an occurrence whose span is not known as said elsewhere', () => {
    const unknown = [occurrence(row, 'status'), occurrence(row, 'gone')];
    expect(commandAnswers([row], unknown, spans, () => undefined).size).toBe(0);
  });
});

describe('buildHookContext and command answers', () => {
  it('ranks what a command printed last, after older names the agent read', async () => {
    const printed = (run: number) =>
      `On branch main\n\tmodified:   src/app.ts\nlast_run: ${run}\nsee https://ci.example.com/runs/4412\n`;
    const context = await contextAfterCommandRuns({
      sessionId: 'answers-1',
      intro: (run) => `Checking the pull request (${run}).`,
      command: () => 'git status',
      output: printed,
      summary: 'Reviewing the pull request and the project registry.',
    });
    const ranked = context?.ranked ?? [];
    const answer = (handle: Handle) =>
      (handle.kind === 'url' || handle.kind === 'assignment') &&
      [1, 2, 3].some((run) => printed(run).includes(handle.text));
    const firstAnswer = ranked.findIndex(answer);
    expect(firstAnswer).toBeGreaterThan(0);
    // The answers are the tail of the ranking: every candidate after the first of them is one too.
    expect(ranked.slice(firstAnswer).every(answer)).toBe(true);
    expect(ranked.slice(0, firstAnswer).map((handle) => handle.text)).toContain('loadProjectRegistry');
  });
});
