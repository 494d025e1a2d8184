/**
 * Codex passes a hook's `additionalContext` on as it is only under 2,500 approximate tokens of 4 UTF-8 bytes (longer
 * text goes to a file and the model sees a head-and-tail preview): after a Codex compaction the context stays under
 * 10,000 bytes as well as under the 10,000-character limit, which a text full of characters outside ASCII (2–3 bytes
 * each) would pass while over the byte limit. After a Claude Code compaction characters alone are counted.
 */
import { describe, expect, it } from 'vitest';
import {
  CODEX_HOOK_OUTPUT_MAX_BYTES,
  HOOK_OUTPUT_MAX_CHARACTERS,
} from '../../src/integrations/claude-code/hook-budget.js';
import { buildHookContext, fitsHookOutput } from '../../src/integrations/claude-code/hook-context.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { memoryLedger } from '../helpers.js';

/** Turns setting many values and reading many pages whose text is in Greek (2 UTF-8 bytes a letter). */
const messages: TranscriptMessage[] = Array.from({ length: 400 }, (_, index) => ({
  role: 'assistant',
  content:
    `Ορίστηκε LIMIT_${index}=μέγιστη_τιμή_ορίου_${index} σύμφωνα με ` +
    `https://example.org/τεκμηρίωση/ρυθμίσεις_${index}/όρια_αιτημάτων.`,
}));

async function contextAfter(agent: 'codex' | 'claude-code') {
  const ledger = memoryLedger();
  const session = await ledger.session('s');
  await session.append(messages);
  await session.importExternalSummary({ summary: '', summarizer: { name: agent, version: '1' } });
  const context = await buildHookContext({ ledger, sessionId: 's', budgetTokens: 1_000_000 });
  await ledger.close();
  return context;
}

describe('hook output limit of Codex, in bytes', () => {
  it('keeps the context after a Codex compaction under 10,000 UTF-8 bytes, and says what it cut', async () => {
    const context = await contextAfter('codex');
    const text = context?.text ?? '';
    expect(context?.shown.length).toBeGreaterThan(10);
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(CODEX_HOOK_OUTPUT_MAX_BYTES);
    expect(text).toMatch(/more handles are left out/);
  });

  it('counts characters alone after a Claude Code compaction: the same session fills more of them', async () => {
    const codex = (await contextAfter('codex'))?.text ?? '';
    const claude = (await contextAfter('claude-code'))?.text ?? '';
    expect(Buffer.byteLength(claude, 'utf8')).toBeGreaterThan(CODEX_HOOK_OUTPUT_MAX_BYTES);
    expect(JSON.stringify(claude).length).toBeLessThan(HOOK_OUTPUT_MAX_CHARACTERS);
    expect(claude.length).toBeGreaterThan(codex.length);
  });

  it('fitsHookOutput charges bytes for Codex only', () => {
    const text = 'ή'.repeat(6_000);
    expect(fitsHookOutput(text)).toBe(true);
    expect(fitsHookOutput(text, 0, 'claude-code')).toBe(true);
    expect(fitsHookOutput(text, 0, 'codex')).toBe(false);
    expect(fitsHookOutput('ή'.repeat(4_000), 0, 'codex')).toBe(true);
    expect(fitsHookOutput('ή'.repeat(4_000), 2_001, 'codex')).toBe(false);
  });
});
