/**
 * Decisions lines that say nothing an agent can act on (issue 36): a reaction to the output just read ("Expected —
 * …", "Right — …") ranks and waits below the state reached; waiting on a tool ("Still compiling …") is filler; and the
 * agent's order to itself ("Close the ticket, commit, and continue.") is a next step, not a decision.
 */
import { describe, expect, it } from 'vitest';
import { rankedDecisions } from '../../src/summarizers/decision-lines.js';
import { afterReaction, isAnalysis, isFiller } from '../../src/summarizers/narration.js';
import type { Candidate } from '../../src/summarizers/task-lines.js';

const candidates = (texts: readonly string[]): Candidate[] =>
  texts.map((text, order) => ({ order, text, spanIds: [`sha256:reaction-${order}`], unit: order }));

describe('reactions to the output just read', () => {
  it('reads the rest of a sentence after its opening reaction, and no result as a reaction', () => {
    expect(afterReaction('Expected — the `Parser` class is not written yet.')).toBe(
      'the `Parser` class is not written yet.',
    );
    expect(afterReaction('Right, the cache was cold.')).toBe('the cache was cold.');
    expect(afterReaction('You’re right - both lock files can exist.')).toBe('both lock files can exist.');
    expect(afterReaction('Done — pushed the branch.')).toBeUndefined();
    expect(afterReaction('Fixed — the lint is clean.')).toBeUndefined();
    expect(afterReaction('Rightly or not, the cache stays.')).toBeUndefined();
  });

  it('counts a reaction as reasoning aloud, and one followed by nothing of weight as filler', () => {
    expect(isAnalysis('Wait — the second worktree is on a detached head.')).toBe(true);
    expect(isFiller('Almost done — this is a cold build.')).toBe(true);
    expect(isFiller('Expected — the `Parser` class is not written yet.')).toBe(false);
  });

  it('ranks a reaction below the state reached and lets it wait like a line that names nothing new', () => {
    const reaction = 'Expected — the `Parser` class is not written yet.';
    const { lines, quietCap } = rankedDecisions(
      candidates([reaction, 'All 184 parser tests pass.', 'The `tokens.ts` module now rejects empty names.']),
      [],
    );
    expect(lines.map((line) => line.text).at(-1)).toBe(reaction);
    const quiet = lines.filter((line) => quietCap.quiet(line, '')).map((line) => line.text);
    expect(quiet).toEqual([reaction]);
  });

  it('keeps a reaction that settles a choice among the decisions', () => {
    const { lines, quietCap } = rankedDecisions(candidates(['Got it — we won’t amend commits from now on.']), []);
    expect(lines).toHaveLength(1);
    expect(quietCap.quiet(lines[0]!, '')).toBe(false);
  });
});

describe('waiting on a tool', () => {
  it('is filler when it names nothing', () => {
    expect(isFiller('Still compiling the test dependencies (first build).')).toBe(true);
    expect(isFiller('Still building.')).toBe(true);
    expect(isFiller('Waiting for the container to start.')).toBe(true);
    expect(isFiller('That’s the missing piece.')).toBe(true);
    expect(isFiller('Still failing on `parse_row`.')).toBe(false);
  });
});

describe("the agent's order to itself", () => {
  it('is left out of the decisions unless it settles a choice or tells a state', () => {
    const texts = [
      'Close ticket 5, commit, and continue.',
      'Add types to `checkpoint/types.go`',
      'Keep the v1 parser as it is.',
      'Use a trie instead of the sorted list.',
      'Fix: retry once on a timeout.',
      'Build passes on every target.',
      'Test updated to read the branch list.',
    ];
    const kept = rankedDecisions(candidates(texts), []).lines.map((line) => line.text);
    expect(kept).not.toContain(texts[0]);
    expect(kept).not.toContain(texts[1]);
    expect(kept).toEqual(expect.arrayContaining(texts.slice(2)));
  });
});
