import { describe, expect, it } from 'vitest';
import { scoreExtraction } from './score.js';
import type { HandleKind } from '../../src/types.js';
import { HANDLE_KINDS } from '../../src/types.js';
import { HANDLE_FIXTURES, HOLDOUT_FIXTURES } from './fixtures.js';

/** Per-kind floors: 0.95 everywhere unless the measured value is lower (see the report). */
const FLOOR: Partial<Record<HandleKind, { precision: number; recall: number }>> = {};
const DEFAULT_FLOOR = { precision: 0.95, recall: 0.95 };

describe('handle extraction quality', () => {
  const score = scoreExtraction(HANDLE_FIXTURES);

  it('has a large labelled set', () => {
    expect(score.fixtures).toBeGreaterThanOrEqual(400);
    expect(HOLDOUT_FIXTURES.length).toBeGreaterThanOrEqual(100);
    for (const kind of HANDLE_KINDS) expect(score.kinds[kind].tp + score.kinds[kind].fn).toBeGreaterThanOrEqual(10);
  });

  for (const kind of HANDLE_KINDS) {
    it(`${kind}: precision and recall reach the floor`, () => {
      const floor = FLOOR[kind] ?? DEFAULT_FLOOR;
      const misses = score.misses
        .filter((miss) => miss.kind === kind)
        .map((miss) => `${miss.type} ${JSON.stringify(miss.text)}`);
      expect(score.kinds[kind].precision, misses.join('\n')).toBeGreaterThanOrEqual(floor.precision);
      expect(score.kinds[kind].recall, misses.join('\n')).toBeGreaterThanOrEqual(floor.recall);
    });
  }
});
