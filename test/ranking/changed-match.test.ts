import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChangedTargets, isChangedBy } from '../../src/ranking/changed-match.js';

/** Short texts over word characters, path separators and boundaries, so targets and handles overlap often. */
const text = fc.string({ unit: fc.constantFrom('a', 'b', '1', '_', '/', '.', ' ', '-'), maxLength: 10 });
const kind = fc.constantFrom('path' as const, 'identifier' as const, 'url' as const);

describe('ChangedTargets', () => {
  it('answers like testing every target in turn', () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 10 }),
        fc.array(fc.tuple(kind, text), { maxLength: 20 }),
        (targets, handles) => {
          const changed = new ChangedTargets(targets);
          for (const [handleKind, handleText] of [
            ...handles,
            ...targets.map((target) => ['path', `x/${target}`] as const),
          ]) {
            const handle = { kind: handleKind, text: handleText };
            expect(changed.has(handle)).toBe(isChangedBy(handle, targets));
          }
        },
      ),
      { numRuns: 500, seed: 13 },
    );
  });

  it('finds a path target at the very end of a longer path, and a handle inside a long target', () => {
    const long = `/home/u/app/${'dir/'.repeat(80)}lib/a.ex`;
    const changed = new ChangedTargets(['b/cd', long]);
    expect(changed.has({ kind: 'path', text: 'a/b/cd' })).toBe(true);
    expect(changed.has({ kind: 'identifier', text: 'a/b/cd' })).toBe(false);
    expect(changed.has({ kind: 'path', text: 'lib/a.ex' })).toBe(true);
    expect(changed.has({ kind: 'url', text: 'lib/a.ex' })).toBe(false);
  });
});
