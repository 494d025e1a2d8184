import { describe, expect, it } from 'vitest';
import { HandleTraitMemo, handleTraits, isResultHeading, valueIdentities } from '../../src/ranking/handle-traits.js';
import type { HandleTraits } from '../../src/ranking/handle-traits.js';
import { looksLikeMarkup, looksLikeNoise, looksLikeTiming } from '../../src/ranking/index-noise.js';
import { rankHandles } from '../../src/ranking/rank-handles.js';
import { rankedOrder } from '../../src/ranking/ranked-order.js';
import type { RankEvidence } from '../../src/ranking/rank-evidence.js';
import { isStandardName } from '../../src/ranking/standard-names.js';
import { familyShape } from '../../src/ranking/handle-families.js';
import type { Handle, HandleKind, Role } from '../../src/types.js';

function handle(kind: HandleKind, text: string, role: Role, seq: number, frozen = true): Handle {
  const built: Handle = {
    kind,
    text,
    key: text.toLowerCase(),
    start: 0,
    end: text.length,
    spanId: `span-${seq}`,
    seq,
    role,
    tokens: Math.max(1, Math.ceil(text.length / 4)),
  };
  return frozen ? Object.freeze(built) : built;
}

const handles: Handle[] = [
  handle('assignment', 'class="btn"', 'tool', 0),
  handle('number', '13.633s', 'tool', 1),
  handle('identifier', 'fmt.Errorf', 'assistant', 2),
  handle('assignment', 'File created successfully at: src/a.ts', 'tool', 3),
  handle('path', 'src/ledger/compact.ts', 'user', 4),
  handle('assignment', 'selection_start_row: nil', 'tool', 5),
  handle('identifier', 'retryBudget', 'assistant', 6),
  handle('assignment', 'REGION=eu-west-2b', 'user', 7),
  handle('identifier', 'row_17', 'tool', 8),
];

/** A memo that counts the handles whose traits it was asked for. */
class CountingMemo extends HandleTraitMemo {
  asked = 0;
  override of(given: Handle): HandleTraits {
    this.asked++;
    return super.of(given);
  }
}

describe('handle traits', () => {
  it('are what the noise, markup, timing, standard-name, heading, family and value checks say of the handle', () => {
    for (const item of handles)
      expect(handleTraits(item)).toEqual({
        noise: looksLikeNoise(item),
        markup: looksLikeMarkup(item),
        timing: looksLikeTiming(item),
        standardName: isStandardName(item),
        resultHeading: isResultHeading(item),
        shape: familyShape(item),
        valueIdentities: valueIdentities(item),
        seedRanking: -1,
        seedAt: -1,
      });
    // The sample holds each trait at least once, so the comparison above checks every field both ways.
    for (const field of [
      'noise',
      'markup',
      'timing',
      'standardName',
      'resultHeading',
      'shape',
      'valueIdentities',
    ] as const)
      expect(handles.some((item) => handleTraits(item)[field])).toBe(true);
  });

  it('are computed once per frozen handle by a memo, and again for a handle that may still change', () => {
    const memo = new HandleTraitMemo();
    const frozen = handles[0] as Handle;
    expect(memo.of(frozen)).toBe(memo.of(frozen));
    const open = handle('assignment', 'class="btn"', 'tool', 0, false);
    const first = memo.of(open);
    expect(memo.of(open)).not.toBe(first);
    expect(memo.of(open)).toEqual(first);
    // Another session's memo holds its own entries.
    expect(new HandleTraitMemo().of(frozen)).not.toBe(memo.of(frozen));
  });

  it("are read from the evidence's memo by the ranking, with the order and features of a ranking without one", () => {
    const evidence: RankEvidence = { occurrences: handles, spans: new Map(), fromSeq: 0, toSeq: 6 };
    const memo = new CountingMemo();
    const withMemo = { ...evidence, traits: memo };
    expect(rankedOrder(handles, withMemo)).toEqual(rankedOrder(handles, evidence));
    expect(memo.asked).toBe(handles.length);
    expect(rankHandles(handles, withMemo)).toEqual(rankHandles(handles, evidence));
    expect(memo.asked).toBe(2 * handles.length);
  });
});
