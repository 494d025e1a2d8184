import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitHandleBudget } from '../../src/compaction/guards.js';
import { layoutIndex } from '../../src/handle-index/index-layout.js';
import type { HandleKind, Role } from '../../src/types.js';
import { placedHandle } from '../helpers.js';

const word = fc.constantFrom('src', 'lib', 'retry', 'a.ts', 'b_c', 'x1', 'timeout', 'must', 'not', '7', '2026-11-01');
const text = fc
  .array(word, { minLength: 1, maxLength: 5 })
  .chain((words) => fc.constantFrom(' ', '/', '.').map((joint) => words.join(joint)));
const kind = fc.constantFrom<HandleKind>('path', 'identifier', 'constraint', 'error');
const role = fc.constantFrom<Role>('tool', 'user', 'assistant');

const handle = placedHandle;

describe('the layout of a placement', () => {
  it('is the layout the kept handles and the summary give on their own, whatever the budget', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ text, kind, role }), { maxLength: 40 }),
        fc.array(word, { maxLength: 80 }),
        fc.nat(120),
        (rows, summaryWords, budget) => {
          const handles = rows.map((row, seq) => handle(row.text, row.kind, row.role, seq));
          const summary = summaryWords.join(' ');
          const fit = fitHandleBudget(
            handles,
            budget,
            'spill',
            { sessionId: 's' },
            { ranked: handles, visibleText: summary },
          );
          const { placement } = fit;
          expect(layoutIndex(fit.kept, summary, placement)).toEqual(layoutIndex(fit.kept, summary));
          // Laid out beside another summary, the kept handles are searched in that summary, not the placed one.
          const other = `${summary} retry`;
          expect(layoutIndex(fit.kept, other, placement)).toEqual(layoutIndex(fit.kept, other));
          expect(layoutIndex(fit.kept, '', placement)).toEqual(layoutIndex(fit.kept));
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });

  it('is handed over when the budget made the placement check containment', () => {
    const handles = ['src/a.ts', 'lib/src/a.ts', 'retry timeout', 'x1'].map((value, seq) =>
      handle(value, 'path', 'tool', seq),
    );
    const fit = fitHandleBudget(handles, 8, 'spill', { sessionId: 's' }, { ranked: handles, visibleText: 'retry' });
    expect(fit.placement?.summary).toBe('retry');
    expect(fitHandleBudget(handles, 1000, 'spill', { sessionId: 's' }, { ranked: handles }).placement).toBeUndefined();
  });
});
