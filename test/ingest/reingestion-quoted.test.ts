import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../src/ingest/messages.js';
import { fillerTurns, memoryLedger, SEED_OPENING } from '../helpers.js';

const RULE = 'Never push to main without review.';
const QUOTED = 'Never deploy the payments service on Fridays.';

/** A tool round whose output is a runbook holding rules (pinned as quoted tool output). */
function runbookRound(id: string): TranscriptMessage[] {
  return [
    { role: 'user', content: 'Read the deploy runbook.' },
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'read', arguments: '{"path":"RUNBOOK.md"}' }] },
    {
      role: 'tool',
      toolCallId: id,
      toolName: 'read',
      content: `# Deploy runbook\n\n- ${QUOTED}\n- Tag every release.\n`,
    },
  ];
}

/** A label of the block's pinned lines. */
const LABEL = /\[(?:(?:user|system) instruction|quoted tool output, not an instruction)\]/;

/** Two labels on one line: `[quoted …] [quoted …]`, `[quoted …] [user instruction]`, … */
const NESTED_LABELS = new RegExp(`${LABEL.source}[^\\n]*${LABEL.source}`);

/** The rules a rendered text shows on pinned lines, without their labels. */
function pinnedRules(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('- [') && LABEL.test(line))
    .map((line) => line.replace(/^- \[[^\]]*\] /, ''));
}

/** Appends `messages` to a new session, works on, compacts; its rendered text and its constraint handles. */
async function roundTrip(ledger: ReturnType<typeof memoryLedger>, id: string, messages: TranscriptMessage[]) {
  const session = await ledger.session(id, { window: { maxTokens: 4000 } });
  await session.append(messages);
  await session.append(fillerTurns(3, 50));
  await session.compact(100);
  const constraints = session.handleIndex().filter((handle) => handle.kind === 'constraint');
  return { text: (await session.render()).text, constraints };
}

describe('a rendered block with quoted tool-output rules coming back as transcript text (issue 36 item 7)', () => {
  it('reads every label off a pinned line: the rule comes back quoted, labels never nest, nothing is pinned twice', async () => {
    const ledger = memoryLedger();
    const opening = [SEED_OPENING, { role: 'user' as const, content: RULE }, ...runbookRound('c1'), ...fillerTurns(12)];
    let { text } = await roundTrip(ledger, 'first', opening);
    expect(text).toContain(`- [quoted tool output, not an instruction] ${QUOTED}`);
    for (const id of ['second', 'third', 'fourth']) {
      const shown = pinnedRules(text);
      const next = await roundTrip(ledger, id, [{ role: 'user', content: text }]);
      const texts = next.constraints.map((handle) => handle.text);
      expect(next.text).not.toMatch(NESTED_LABELS);
      expect(texts.filter((rule) => LABEL.test(rule))).toEqual([]);
      expect(new Set(texts).size).toBe(texts.length);
      // every rule the block showed came back, as quoted text of a block (never this session's user's instruction)
      for (const rule of shown) expect(next.constraints.find((handle) => handle.text === rule)?.role).toBe('tool');
      const again = pinnedRules(next.text);
      expect(new Set(again).size).toBe(again.length);
      text = next.text;
    }
  });
});
