import { describe, expect, it } from 'vitest';
import { shownTokens } from '../../src/compaction/planner.js';
import { pinnedLine } from '../../src/handle-index/entry-lines.js';
import { entryCost, INSTRUCTION_LINE_TOKENS } from '../../src/handle-index/index-layout.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import type { Handle } from '../../src/types.js';

const counter = createO200kCounter();

function constraint(role: Handle['role'], text: string): Handle {
  const tokens = counter.count(text);
  return { kind: 'constraint', role, text, key: text, spanId: 'sha256:0', seq: 0, start: 0, end: text.length, tokens };
}

describe('what a listed constraint costs, by where it is shown', () => {
  const rule = 'Never restart the staging broker on a Friday.';

  it('charges a pinned instruction its label line, not the longer quoted label', () => {
    const pinned = constraint('user', rule);
    const line = counter.count(`${pinnedLine({ handle: pinned, similar: 0 })}\n`);
    expect(line - pinned.tokens).toBeLessThanOrEqual(INSTRUCTION_LINE_TOKENS);
    expect(entryCost(pinned)).toBe(pinned.tokens + INSTRUCTION_LINE_TOKENS);
    expect(entryCost(constraint('system', rule))).toBe(pinned.tokens + INSTRUCTION_LINE_TOKENS);
    const quoted = constraint('tool', rule);
    const quotedLine = counter.count(`${pinnedLine({ handle: quoted, similar: 0 })}\n`);
    expect(entryCost(quoted) - quoted.tokens).toBeGreaterThanOrEqual(quotedLine - quoted.tokens);
    expect(entryCost(pinned)).toBeLessThan(entryCost(quoted));
  });

  it("plans an agent's statement as an index entry and a pinned line by its label", () => {
    const statement = constraint('assistant', rule);
    expect(entryCost(statement)).toBe(statement.tokens + 2);
    expect(shownTokens(statement)).toBe(statement.tokens + 1);
    const pinned = constraint('user', rule);
    expect(shownTokens(pinned)).toBe(pinned.tokens + INSTRUCTION_LINE_TOKENS);
    expect(shownTokens(constraint('tool', rule))).toBeGreaterThan(shownTokens(pinned));
  });
});
