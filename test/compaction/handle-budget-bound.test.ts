import { describe, expect, it } from 'vitest';
import { fitHandleBudget } from '../../src/compaction/guards.js';
import { HandleBudgetExceededError } from '../../src/errors.js';
import { placedHandle } from '../helpers.js';

const handle = placedHandle;

const outer = handle('lib/src/retry.ts', 'path', 'tool', 0); // 5 tokens: 7 listed, + 4 for the path header
const inner = handle('src/retry.ts', 'path', 'tool', 1); // 4 tokens: 6 listed (inside `outer`, charged all the same)
const error = handle('connection failed after 3 retries', 'error', 'tool', 2); // 10 tokens: 12, + 4 for its header
const copy = handle('connection failed after 5 retries', 'error', 'tool', 3); // near-identical: the 6-token note
const second = handle('connection failed after 7 retries', 'error', 'tool', 4); // near-identical again: nothing
const instruction = handle('must not retry', 'constraint', 'user', 5); // 5 tokens: 11 pinned, + 4 for its heading
const ranked = [outer, inner, error, copy, second, instruction];
/** The upper bound of listing them all: 15 + 11 + 6 + 16 + 6 + 0. */
const ALL_TOKENS = 54;

describe('the handle budget check before any placement', () => {
  it('reports the upper bound of listing every handle: near-identical copies once, a handle inside another charged', () => {
    let thrown: unknown;
    try {
      fitHandleBudget(ranked, 20, 'throw', { sessionId: 's' }, { ranked });
    } catch (error) {
      thrown = error;
    }
    expect(HandleBudgetExceededError.isInstance(thrown)).toBe(true);
    expect((thrown as HandleBudgetExceededError).details.tokens).toBe(ALL_TOKENS);
  });

  it('keeps every handle in placement order (instructions first) when the upper bound fits, without a placement', () => {
    const fit = fitHandleBudget(ranked, ALL_TOKENS, 'throw', { sessionId: 's' }, { ranked });
    expect(fit.kept).toEqual([instruction, outer, inner, error, copy, second]);
    expect(fit.spilled).toEqual([]);
    expect(fit.placement).toBeUndefined();
  });

  it('places the handles when the upper bound does not fit: a handle inside another is then free', () => {
    const fit = fitHandleBudget(ranked, ALL_TOKENS - 6, 'throw', { sessionId: 's' }, { ranked });
    expect(fit.kept).toEqual([instruction, outer, inner, error, copy, second]);
    expect(fit.placement?.checks.get(inner)).toBe(true);
    expect(() => fitHandleBudget(ranked, ALL_TOKENS - 7, 'throw', { sessionId: 's' }, { ranked })).toThrow(
      HandleBudgetExceededError,
    );
  });
});
