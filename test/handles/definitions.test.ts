import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

/** The assignment handles of `text` (bindings included). */
function assignments(text: string): string[] {
  return extractHandles(text)
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);
}

describe('term-definition lines: a value that opens a line, bound to the words that say what it is', () => {
  it.each([
    ['4. [● P1] [task] proj-12.1: Extract parser module for reuse', 'proj-12.1: Extract parser module'],
    [
      '**`src/store/rewind.go`** — New struct returned by `Restore()` and',
      '**`src/store/rewind.go`** — New struct returned',
    ],
    ['- db-ro-3: The read replica in eu-west-1', 'db-ro-3: The read replica'],
    ['* OPS-4411 - Rotate staging certificates before Friday', 'OPS-4411 - Rotate staging certificates'],
    // a ticket title keeps its fourth word, not a trailing function word
    [
      '4. [● P1] [task] proj-9.1: Move invoice rendering pipeline to workers',
      'proj-9.1: Move invoice rendering pipeline',
    ],
    // a description may open with a name in backticks, and a location after it is kept
    [
      '**`cache/policy.go`** — `Fetcher` interface (line 210-233):',
      '**`cache/policy.go`** — `Fetcher` interface (line 210-233)',
    ],
    [
      '**`a/client.go`** — Constructor signature (lines 88-97):',
      '**`a/client.go`** — Constructor signature (lines 88-97)',
    ],
    // a parenthesis that goes on past the location is left out
    ['- `a/worker.go` — The early exit branch (~line 51, after the loop)', '`a/worker.go` — The early exit branch'],
  ])('%s', (text, binding) => {
    expect(assignments(text)).toContain(binding);
  });

  it.each([
    // A compiler or test line reference: the colon is followed by a line number, not a description.
    '    checkpoint_test.go:134: Content hash not found',
    // Words before the value: a label of its own, or prose.
    'see src/a.ts: the entry point',
    // A code name (no digit, slash or dash) is no value to bind.
    '- `sessionId`: the id of the session',
    // One word of description says too little.
    '- src/a.ts: Done',
    // A grep match line runs into code.
    './harbor/contrib/panel/utils.py:    return s',
    './harbor/contrib/panel/utils.py: return value.strip()',
  ])('no definition binding in %s', (text) => {
    const value = assignments(text).filter((binding) => !/^(?:modified|see)\b/.test(binding));
    expect(value.filter((binding) => /[:—-]\s/.test(binding) && !binding.includes('='))).toEqual([]);
  });
});

describe('amounts written as the adjective of their measure keep the measure', () => {
  it.each([
    ['Lines are trivial under the 10-character threshold.', '10-character threshold'],
    ['We settled on a 30-second timeout for the hook.', '30-second timeout'],
    ['There is a 5 GB limit on uploads.', '5 GB limit'],
  ])('%s', (text, amount) => {
    const numbers = extractHandles(text)
      .filter((handle) => handle.kind === 'number')
      .map((handle) => handle.text);
    expect(numbers).toContain(amount);
  });

  it('a hyphenated number before a word that measures nothing stays out', () => {
    expect(extractHandles('It is a 2-step process.').filter((handle) => handle.kind === 'number')).toEqual([]);
  });
});
