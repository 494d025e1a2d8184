/**
 * What the agent keeps in view after its own compaction (`hook-context-kept.ts`): Claude Code keeps its summary;
 * Codex keeps no summary text but the user's and developer messages verbatim, so the injected context does not
 * spend its characters listing them again. Also: dates rank below everything (`HOOK_RANK_WEIGHTS`), and the hook
 * output uses the room up to the limit, charging the cut note at its own length.
 */
import { describe, expect, it } from 'vitest';
import { HOOK_OUTPUT_MAX_CHARACTERS } from '../../src/integrations/claude-code/hook-budget.js';
import { buildHookContext, fitsHookOutput } from '../../src/integrations/claude-code/hook-context.js';
import {
  CODEX_KEPT_USER_CHARACTERS,
  keptText,
  TYPED_KINDS,
} from '../../src/integrations/claude-code/hook-context-kept.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { memoryLedger } from '../helpers.js';

const output = (text: string) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });

async function compacted(messages: readonly TranscriptMessage[], agent: 'codex' | 'claude-code', summary = '') {
  const ledger = memoryLedger();
  const session = await ledger.session('s');
  await session.append(messages);
  await session.importExternalSummary({ summary, summarizer: { name: agent, version: '1' } });
  return ledger;
}

describe('keptText', () => {
  const spans = [
    { kind: 'user' as const, text: 'Fix the loader in pkg/loader_v2.ts' },
    { kind: 'harness' as const, text: '<environment_context>cwd /srv/app-9</environment_context>' },
    { kind: 'system' as const, text: 'sandbox_mode is workspace-write-7' },
    { kind: 'tool-result' as const, text: 'read pkg/other_v3.ts' },
    { kind: 'assistant' as const, text: 'I will edit pkg/third_v4.ts' },
  ].map((span, seq) => ({ seq, span }));
  const codex = { summary: '', summarizer: { name: 'codex', version: '1' } };

  it("is the summary alone for Claude Code's compaction", () => {
    expect(keptText({ summary: 'S1', summarizer: { name: 'claude-code', version: '2' } }, spans)).toBe('S1');
  });

  it("is the summary plus the user, developer and harness turns for Codex's, never tool output or the agent's turns", () => {
    const text = keptText(codex, spans);
    expect(text).toContain('pkg/loader_v2.ts');
    expect(text).toContain('/srv/app-9');
    expect(text).toContain('workspace-write-7');
    expect(text).not.toContain('pkg/other_v3.ts');
    expect(text).not.toContain('pkg/third_v4.ts');
  });

  it('keeps the newest user turns up to the bound, and the developer messages whatever their age', () => {
    const turn = (seq: number, kind: 'user' | 'system', word: string) => ({
      seq,
      span: { kind, text: `${word} ${'x'.repeat(CODEX_KEPT_USER_CHARACTERS / 2)}` },
    });
    const text = keptText(codex, [
      turn(0, 'system', 'dev_rule_0'),
      turn(1, 'user', 'oldest_ask_1'),
      turn(2, 'user', 'older_ask_2'),
      turn(3, 'user', 'newest_ask_3'),
    ]);
    expect(text).toContain('newest_ask_3');
    expect(text).not.toContain('oldest_ask_1');
    expect(text).toContain('dev_rule_0');
  });

  it('with the typed kinds, is what the person typed only', () => {
    const text = keptText(codex, spans, TYPED_KINDS);
    expect(text).toContain('pkg/loader_v2.ts');
    expect(text).not.toContain('/srv/app-9');
  });
});

describe('the injected context after a Codex compaction', () => {
  const messages: TranscriptMessage[] = [
    { role: 'user', content: 'The failing module is services/billing/invoice_v7.go today.' },
    { role: 'assistant', content: 'Reading services/billing/invoice_v7.go and services/billing/ledger_v3.go now.' },
    { role: 'assistant', content: 'Edited services/billing/invoice_v7.go and services/billing/ledger_v3.go.' },
  ];

  it('does not list a handle Codex kept in the user message, but lists the same handle after Claude Code', async () => {
    for (const agent of ['codex', 'claude-code'] as const) {
      const ledger = await compacted(messages, agent);
      const context = await buildHookContext({ ledger, sessionId: 's' });
      const text = context?.text ?? '';
      expect(text).toContain('services/billing/ledger_v3.go');
      if (agent === 'codex') expect(text).not.toContain('services/billing/invoice_v7.go');
      else expect(text).toContain('services/billing/invoice_v7.go');
      await ledger.close();
    }
  });
});

describe('dates in the injected context', () => {
  it('a date mentioned in many turns ranks below a name mentioned once', async () => {
    const messages: TranscriptMessage[] = Array.from({ length: 8 }, (_, index) => ({
      role: 'assistant',
      content: `Run ${index} started at 2026-03-01T10:00:00Z.`,
    }));
    messages.push({ role: 'assistant', content: 'The target is build_target_7.' });
    const ledger = await compacted(messages, 'claude-code', 'Working on the build.');
    const context = await buildHookContext({ ledger, sessionId: 's' });
    const ranked = context?.ranked.map((handle) => handle.text) ?? [];
    const date = ranked.indexOf('2026-03-01T10:00:00Z');
    expect(date).toBeGreaterThanOrEqual(0);
    expect(ranked.indexOf('build_target_7')).toBeGreaterThanOrEqual(0);
    expect(ranked.indexOf('build_target_7')).toBeLessThan(date);
    await ledger.close();
  });
});

describe('room under the hook output limit', () => {
  it('a cut context fills the output to within 150 characters of the limit, note included', async () => {
    const messages: TranscriptMessage[] = Array.from({ length: 400 }, (_, index) => ({
      role: 'assistant',
      content: `Checked cfg_${index}_x and /srv/d/s${index}.toml.`,
    }));
    const ledger = await compacted(messages, 'claude-code', 'Working on the deploy.');
    const context = await buildHookContext({ ledger, sessionId: 's', budgetTokens: 1_000_000 });
    const text = context?.text ?? '';
    expect(text).toMatch(/more handles are left out/);
    expect(output(text).length).toBeLessThanOrEqual(HOOK_OUTPUT_MAX_CHARACTERS);
    expect(output(text).length).toBeGreaterThan(HOOK_OUTPUT_MAX_CHARACTERS - 150);
    await ledger.close();
  });

  it('fitsHookOutput charges the room asked for', () => {
    const text = 'a'.repeat(9_000);
    expect(fitsHookOutput(text)).toBe(true);
    expect(fitsHookOutput(text, 1_000)).toBe(false);
  });
});
