/**
 * Two Codex shapes read by the injected context (issue 38): an `apply_patch` file header is the file it names, not a
 * prose binding `Update File: …` (the extractor reads it so, `handles/patch-headers.ts`); a bare name the agent typed
 * into a tool call stays a candidate when a later binding supersedes the value it once held.
 */
import { describe, expect, it } from 'vitest';
import { buildHookContext } from '../../src/integrations/claude-code/hook-context.js';
import { withoutDiffSides } from '../../src/integrations/claude-code/hook-context-patch.js';
import { withoutActedOn } from '../../src/integrations/claude-code/hook-context-acted.js';
import type { Handle } from '../../src/types.js';
import { memoryLedger, SEED_OPENING } from '../helpers.js';

const summarizer = { name: 'codex', version: '0.140.0' };

function handle(kind: Handle['kind'], text: string, spanId = 's1'): Handle {
  return { kind, text, key: text, start: 4, end: 4 + text.length, spanId, seq: 1, role: 'assistant', tokens: 9 };
}

describe('withoutDiffSides', () => {
  it('reads both sides of a diffed file as the file, and a lone a/ path as it is', () => {
    const read = withoutDiffSides(
      [handle('path', 'a/lib/tax-rates.ts'), handle('path', 'b/lib/tax-rates.ts'), handle('path', 'a/notes')],
      () => 3,
    );
    expect(read.map((each) => each.text)).toEqual(['lib/tax-rates.ts', 'lib/tax-rates.ts', 'a/notes']);
    expect(read[0]).toMatchObject({ start: 6, end: 22 });
  });
});

describe('withoutActedOn', () => {
  it('keeps superseded bindings and drops the bare names inside tool calls', () => {
    const spans = new Map([
      ['call', { kind: 'tool-call' as const }],
      ['text', { kind: 'assistant' as const }],
    ]);
    const binding = handle('assignment', 'TICKET=ab-12x.1', 'call');
    const typed = handle('identifier', 'ab-12x.1', 'call');
    const said = handle('identifier', 'ab-12x.1', 'text');
    expect(withoutActedOn(new Set([binding, typed, said]), spans)).toEqual(new Set([binding, said]));
  });
});

describe('buildHookContext after a Codex compaction', () => {
  it('lists a file an apply_patch edited as a path, without the header label', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('codex-patch-header');
    const patch =
      '*** Begin Patch\n*** Update File: src/billing/invoice-total.ts\n@@\n-const a = 1;\n+const a = 2;\n*** End Patch';
    await session.append([
      SEED_OPENING,
      {
        role: 'assistant',
        content: 'Fixing the rounding.',
        toolCalls: [{ id: 'p1', name: 'apply_patch', arguments: patch }],
      },
      {
        role: 'tool',
        toolCallId: 'p1',
        content: 'Success. Updated the following files:\nM src/billing/invoice-total.ts',
      },
    ]);
    await session.importExternalSummary({ summary: '', summarizer });
    const text = (await buildHookContext({ ledger, sessionId: 'codex-patch-header' }))?.text ?? '';
    expect(text).toContain('src/billing/invoice-total.ts');
    expect(text).not.toContain('Update File:');
    await ledger.close();
  });

  it("lists a git diff's file once, without its a/ and b/ sides", async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('codex-diff-sides');
    const diff =
      'diff --git a/lib/tax-rates.ts b/lib/tax-rates.ts\n--- a/lib/tax-rates.ts\n+++ b/lib/tax-rates.ts\n@@ -1 +1 @@\n-x\n+y';
    await session.append([
      SEED_OPENING,
      {
        role: 'assistant',
        content: 'Diffing.',
        toolCalls: [{ id: 'd1', name: 'exec_command', arguments: '{"cmd":"git diff"}' }],
      },
      { role: 'tool', toolCallId: 'd1', content: diff },
    ]);
    await session.importExternalSummary({ summary: '', summarizer });
    const text = (await buildHookContext({ ledger, sessionId: 'codex-diff-sides' }))?.text ?? '';
    expect(text).toContain('lib/tax-rates.ts');
    expect(text).not.toContain('a/lib/tax-rates.ts');
    expect(text).not.toContain('b/lib/tax-rates.ts');
    await ledger.close();
  });

  it('shows a name the agent ran a command on after a later binding replaced it, not the old binding', async () => {
    const ledger = memoryLedger();
    const session = await ledger.session('codex-acted-on');
    await session.append([
      SEED_OPENING,
      { role: 'assistant', content: 'Working on TICKET=ab-12x.1 first.' },
      {
        role: 'assistant',
        content: 'Opening it.',
        toolCalls: [
          { id: 'c1', name: 'exec_command', arguments: '{"cmd":"tracker show ab-12x.1","workdir":"/srv/shop"}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', content: 'ab-12x.1: rounding of invoice totals (open)' },
      { role: 'assistant', content: 'Blocked on review; moving to TICKET=ab-12x.2 next.' },
    ]);
    await session.importExternalSummary({ summary: '', summarizer });
    const text = (await buildHookContext({ ledger, sessionId: 'codex-acted-on' }))?.text ?? '';
    expect(text).toContain('TICKET=ab-12x.2');
    expect(text).not.toContain('TICKET=ab-12x.1');
    expect(text).toMatch(/ab-12x\.1(?![0-9])/);
    await ledger.close();
  });
});
