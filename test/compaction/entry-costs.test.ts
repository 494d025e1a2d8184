import { describe, expect, it } from 'vitest';
import { shownIndexTokens, shownTokens } from '../../src/compaction/planner.js';
import { pinnedLine } from '../../src/handle-index/entry-lines.js';
import { entryCost, INSTRUCTION_LINE_TOKENS } from '../../src/handle-index/index-layout.js';
import { createO200kCounter } from '../../src/tokens/token-counter.js';
import { SECTION_HEADINGS } from '../../src/text/block-headings.js';
import type { Handle, HandleKind } from '../../src/types.js';
import { ledgerBlock } from '../../src/window/window.js';
import { handleAt, summaryRecord } from '../helpers.js';

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

describe("the planner's estimate of an index against the rendered block", () => {
  const shown = (text: string, kind: HandleKind, role: Handle['role']): Handle => ({
    ...handleAt(text, kind, role),
    tokens: counter.count(text),
  });
  const block = (handles: readonly Handle[]) =>
    ledgerBlock({ active: summaryRecord({ handles }), gaps: [], originals: [] }) ?? '';
  /** Rendered tokens `handles` add to a block without them, less the section headings (the frame counts those). */
  const rendered = (handles: readonly Handle[], headings: readonly string[]) =>
    counter.count(block(handles)) -
    counter.count(block([])) -
    headings.reduce((sum, heading) => sum + counter.count(`${heading}\n`), 0);
  const headings = SECTION_HEADINGS.base;

  it('estimates pinned instructions, quoted lines and agent statements within a token a line of what they render', () => {
    const pinned = [
      shown('Never restart the staging broker on a Friday.', 'constraint', 'user'),
      shown('always run the linter before you commit', 'constraint', 'user'),
      shown('do not touch config/prod.yaml', 'constraint', 'user'),
      shown('2 spaces for indentation, never tabs', 'constraint', 'user'),
      shown('/srv/cache must stay read-only', 'constraint', 'system'),
    ];
    const quoted = [
      shown('Do not edit generated files by hand.', 'constraint', 'tool'),
      shown('WARNING: never commit the .env file', 'constraint', 'tool'),
    ];
    const statements = [
      shown('I will not change the public API.', 'constraint', 'assistant'),
      shown('I must keep the old flag working.', 'constraint', 'assistant'),
    ];
    const cases: [readonly Handle[], string][] = [
      [pinned, headings.instructions],
      [quoted, headings.quoted],
      [statements, headings.index],
    ];
    for (const [handles, heading] of cases) {
      const actual = rendered(handles, [heading]);
      // The estimate charges the section a group label once; the lines themselves must agree within a token each.
      expect(Math.abs(shownIndexTokens(handles) - actual), heading).toBeLessThanOrEqual(handles.length + 3);
    }
    const all = [...pinned, ...quoted, ...statements];
    const actual = rendered(all, [headings.instructions, headings.quoted, headings.index]);
    expect(Math.abs(shownIndexTokens(all) - actual)).toBeLessThanOrEqual(Math.ceil(actual / 10));
  });
});
