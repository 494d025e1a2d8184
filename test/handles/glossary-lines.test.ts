/**
 * Glossary lines: a term defined with `==` on a line of its own (`shard == slice of rows kept on one node`) is
 * bound whole, so the term and its meaning stay together; a comparison in code is not a definition, and a definition
 * sets no value a later line could replace.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { bindingOf } from '../../src/handles/supersession.js';

const assignments = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);

describe('glossary lines', () => {
  it('binds each term with its meaning', () => {
    const text =
      'new wording, please:\n\nrelease == a tagged build on the stable channel\n- draft == an unpublished note\n';
    expect(assignments(text)).toEqual([
      'release == a tagged build on the stable channel',
      'draft == an unpublished note',
    ]);
  });

  it.each([
    'if ready == true { start() }',
    'assert total == expected sum',
    'assert a == b, "values differ"',
    'count == 3',
    'mode == fast',
    'SQL1 == SQL2: False',
    'new_label if to_column_label == old_label else to_column_label',
  ])('binds nothing in %j', (text) => {
    expect(assignments(text)).toEqual([]);
  });

  it('reads no rebindable label from a definition', () => {
    expect(bindingOf({ kind: 'assignment', text: 'draft == an unpublished note' })).toBeUndefined();
  });
});
