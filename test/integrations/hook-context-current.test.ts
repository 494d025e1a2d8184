/**
 * Which of several shown bindings of one label is current (`hook-context-current.ts`), and pinned instructions the
 * agent keeps verbatim (`hook-context.ts`, `candidatesOf`). Both fail on the code before them: no binding was marked
 * current, and every user instruction was pinned again whatever the agent kept.
 */
import { describe, expect, it } from 'vitest';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import {
  CURRENT_NOTE,
  currentBindings,
  labelledValue,
} from '../../src/integrations/claude-code/hook-context-current.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { handleAt, memoryLedger, readTurns } from '../helpers.js';

async function contextAfter(messages: readonly TranscriptMessage[], agent: 'codex' | 'claude-code', summary = '') {
  const ledger = memoryLedger();
  const session = await ledger.session('s');
  await session.append(messages);
  await session.importExternalSummary({ summary, summarizer: { name: agent, version: '1' } });
  const context = await buildHookContext({ ledger, sessionId: 's' });
  await ledger.close();
  return context?.text ?? '';
}

describe('labelledValue', () => {
  it('reads a label and its value, quotes off', () => {
    expect(labelledValue(handleAt('PR: `#512`', 'assignment'))).toEqual({ label: 'pr', value: '#512' });
    expect(labelledValue(handleAt("branch: 'rel-4'", 'assignment'))).toEqual({ label: 'branch', value: 'rel-4' });
    expect(labelledValue(handleAt('Base branch: origin/main', 'assignment'))).toEqual({
      label: 'base branch',
      value: 'origin/main',
    });
  });

  it('reads no key=value field, emphasised heading, generic key, option, JSON field, placeholder or other kind', () => {
    expect(labelledValue(handleAt('component=hooks', 'assignment'))).toBeUndefined();
    expect(labelledValue(handleAt('DEPLOY_REGION=eu-2', 'assignment'))).toBeUndefined();
    expect(labelledValue(handleAt('**New file:** `a_test.go`', 'assignment'))).toBeUndefined();
    expect(labelledValue(handleAt('type: composite', 'assignment'))).toBeUndefined();
    expect(labelledValue(handleAt('--format=json', 'assignment'))).toBeUndefined();
    expect(labelledValue(handleAt('"branch": "rel-4"', 'assignment'))).toBeUndefined();
    expect(labelledValue(handleAt('branch: ...', 'assignment'))).toBeUndefined();
    expect(labelledValue(handleAt('branch: <name>', 'assignment'))).toBeUndefined();
    expect(labelledValue(handleAt('branch: rel-4', 'identifier'))).toBeUndefined();
  });
});

describe('currentBindings', () => {
  const span = (kind: 'assistant' | 'tool-result' | 'user', text: string) => ({ kind, text });

  it('marks the binding the session stated last, not a later one read from output', () => {
    const read = { ...handleAt('branch: fixture-9', 'assignment'), seq: 30 };
    const older = { ...handleAt('branch: release-2', 'assignment', 'assistant'), seq: 5 };
    const said = { ...handleAt('Branch: feat-login-7', 'assignment', 'assistant'), seq: 20 };
    const spans = new Map([
      [read.spanId, span('tool-result', read.text)],
      [older.spanId, span('assistant', older.text)],
      [said.spanId, span('assistant', said.text)],
    ]);
    expect([...currentBindings([read, older, said], [read, older, said], spans)]).toEqual([said.text]);
  });

  it('marks nothing when only files or output bound the label, or one value is shown', () => {
    const a = handleAt('branch: fixture-9', 'assignment');
    const b = handleAt('branch: fixture-10', 'assignment');
    const spans = new Map([
      [a.spanId, span('tool-result', a.text)],
      [b.spanId, span('tool-result', b.text)],
    ]);
    expect(currentBindings([a, b], [a, b], spans).size).toBe(0);
    const said = handleAt('branch: fixture-9', 'assignment', 'assistant');
    expect(currentBindings([said], [said], new Map([[said.spanId, span('assistant', said.text)]])).size).toBe(0);
  });

  it('marks nothing when one message of the session gives the label both values (a list)', () => {
    const text = 'Session ID: `run-a-01`\nSession ID: `run-b-02`';
    const first = handleAt('Session ID: `run-a-01`', 'assignment', 'assistant');
    const second = { ...handleAt('Session ID: `run-b-02`', 'assignment', 'assistant'), spanId: first.spanId };
    const spans = new Map([[first.spanId, span('assistant', text)]]);
    expect(currentBindings([first, second], [first, second], spans).size).toBe(0);
  });

  it('does not count a binding inside a fenced code block of the agent (an example it gave)', () => {
    const example = { ...handleAt('remote: https://example.org/a.git', 'assignment', 'assistant'), start: 12 };
    const other = handleAt('remote: https://example.org/b.git', 'assignment', 'assistant');
    const spans = new Map([
      [example.spanId, span('assistant', 'Like this:\n```\nremote: https://example.org/a.git\n```')],
      [other.spanId, span('assistant', other.text)],
    ]);
    expect([...currentBindings([example, other], [example, other], spans)]).toEqual([other.text]);
  });
});

describe('the injected context', () => {
  it('writes the branch the agent stated last as current among the branches it shows', async () => {
    const text = await contextAfter(
      [
        { role: 'user', content: 'Please look at the flaky login test.' },
        { role: 'assistant', content: 'Branch: feat-login-7' },
        ...readTurns('ci/fixture.yaml', 'branch: fixture-old-9\nretries: 3', 'Reading the fixture.'),
      ],
      'claude-code',
      'Fixing the flaky login test.',
    );
    expect(text).toContain('branch: fixture-old-9');
    expect(text).toContain(`Branch: feat-login-7${CURRENT_NOTE}`);
    expect(text).not.toMatch(/fixture-old-9[^|\n]*\(current\)/);
  });

  it('does not pin again an instruction Codex kept verbatim, and pins it after Claude Code', async () => {
    const rule = 'Never push directly to the main branch of billing-svc.';
    const messages: TranscriptMessage[] = [
      { role: 'user', content: rule },
      { role: 'assistant', content: 'Understood; working in services/billing/invoice_v7.go.' },
    ];
    expect(await contextAfter(messages, 'codex')).not.toContain(`[user instruction] ${rule}`);
    expect(await contextAfter(messages, 'claude-code', 'Working on billing.')).toContain(`[user instruction] ${rule}`);
    expect(await contextAfter(messages, 'claude-code', `The user said: ${rule}`)).not.toContain(
      `[user instruction] ${rule}`,
    );
  });
});
