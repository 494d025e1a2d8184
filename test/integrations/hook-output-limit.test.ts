/**
 * Claude Code passes hook output on as it is only under 10,000 characters (longer `additionalContext` becomes a file
 * path and a preview): the SessionStart(compact) context stays under it whatever `--budget` says, and says what it cut.
 */
import { describe, expect, it } from 'vitest';
import { HOOK_OUTPUT_MAX_CHARACTERS } from '../../src/integrations/claude-code/hook-budget.js';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { memoryLedger } from '../helpers.js';

/** What the hook prints for `text`: the JSON line Claude Code reads. */
const output = (text: string) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } });

async function compactedSession(messages: readonly TranscriptMessage[]) {
  const ledger = memoryLedger();
  const session = await ledger.session('s');
  await session.append(messages);
  await session.importExternalSummary({
    summary: 'Working on the deploy.',
    summarizer: { name: 'claude-code', version: '2' },
  });
  return ledger;
}

describe('hook output limit', () => {
  it('a large --budget still gives output under 10,000 characters, with a line saying how many handles were cut', async () => {
    const messages: TranscriptMessage[] = Array.from({ length: 300 }, (_, index) => ({
      role: 'assistant',
      content: `Checked SERVICE_${index}_ENDPOINT_HOST and /srv/deploy/service-${index}/config.toml for release v${index}.2.7.`,
    }));
    const ledger = await compactedSession(messages);
    const context = await buildHookContext({ ledger, sessionId: 's', budgetTokens: 1_000_000 });
    expect(context).toBeDefined();
    const text = context?.text ?? '';
    expect(output(text).length).toBeLessThan(HOOK_OUTPUT_MAX_CHARACTERS);
    expect(text).toMatch(/Cut to stay under Claude Code's 10000-character hook output: \d+ more handles are left out/);
    expect(context?.shown.length).toBeGreaterThan(50);
    await ledger.close();
  });

  it('pinned constraints over the limit are cut too, and the text says how many handles were left out', async () => {
    const messages: TranscriptMessage[] = Array.from({ length: 80 }, (_, index) => ({
      role: 'user',
      content:
        `Never deploy service-${index} to production-eu-${index} on a Friday without approval from the on-call lead ` +
        `and a rollback plan written in the release ticket REL-${1000 + index} beforehand.`,
    }));
    const ledger = await compactedSession(messages);
    const context = await buildHookContext({ ledger, sessionId: 's', budgetTokens: 1_000_000 });
    const text = context?.text ?? '';
    expect(output(text).length).toBeLessThan(HOOK_OUTPUT_MAX_CHARACTERS);
    expect(text).toMatch(/Cut to stay under Claude Code's 10000-character hook output: \d+ more handles are left out/);
    expect(text).toContain('[user instruction] Never deploy service-79 to production-eu-79');
    await ledger.close();
  });
});
