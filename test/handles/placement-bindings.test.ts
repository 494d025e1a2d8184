/**
 * Values after a verb of placing: "record it in open_questions" says where a thing already named goes; the verb,
 * the pronoun and the preposition are the value's label, whatever its shape, and such a label names a different thing
 * each time (an item of a list, never a rebinding).
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { bindingOf, supersededHandles } from '../../src/handles/supersession.js';
import type { Handle } from '../../src/types.js';

const assignments = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);

function handlesAt(text: string, seq: number): Handle[] {
  return extractHandles(text).map((handle) => ({ ...handle, spanId: `sha256:${seq}`, seq, role: 'user', tokens: 3 }));
}

describe('placement bindings', () => {
  it.each([
    ['for now can we record it in open_questions?', ['record it in open_questions']],
    ["fine, let's add them to settings.yaml. Then test", ['add them to settings.yaml']],
    ['please move this to `lib/retry.ts` later', ['move this to `lib/retry.ts`']],
  ])('binds %j', (text, expected) => {
    expect(assignments(text)).toEqual(expected);
  });

  it.each(['we move them to the end', 'look at it in src/app.ts', 'add it to a 5 minute timer'])(
    'binds nothing in %j',
    (text) => {
      expect(assignments(text)).toEqual([]);
    },
  );

  it('reads the binding as an item of a list: a later place for another thing replaces nothing', () => {
    expect(bindingOf({ kind: 'assignment', text: 'record it in open_questions' })).toMatchObject({
      label: 'record it',
      value: 'open_questions',
      listed: true,
    });
    const first = handlesAt('add it to alpha.json', 1);
    const second = handlesAt('add it to beta.json', 2);
    expect(supersededHandles([...first, ...second]).size).toBe(0);
  });
});
