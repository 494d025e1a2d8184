import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { bindingOf, supersededHandles } from '../../src/handles/supersession.js';
import type { Handle } from '../../src/types.js';

/** The handles of `text` as said at `seq` by the agent. */
function handlesAt(text: string, seq: number): Handle[] {
  return extractHandles(text).map((handle) => ({
    ...handle,
    spanId: `sha256:${seq}`,
    seq,
    role: 'assistant',
    tokens: 3,
  }));
}

const supersededTexts = (...texts: string[]) =>
  [...supersededHandles(texts.flatMap((text, index) => handlesAt(text, index + 1)))].map((handle) => handle.text);

const assignments = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);

describe('numbered references bound to their tracker word and whose they are', () => {
  it('binds "PR #N" with the owner that tells two of them apart', () => {
    const text = "Comparing our PR #512 with Maria's PR #513: both touch the parser.\n";
    expect(assignments(text)).toEqual(['our PR #512', "Maria's PR #513"]);
    const [ours, theirs] = extractHandles(text).filter((handle) => handle.kind === 'assignment');
    expect(bindingOf(ours!)?.label).not.toBe(bindingOf(theirs!)?.label);
  });

  it('binds an issue number after its word, without an owner or the verb before it', () => {
    expect(assignments('This is tracked in issue #77 upstream.\n')).toEqual(['issue #77']);
    expect(assignments('Next I will review PR #90 and close it.\n')).toEqual(['PR #90']);
    expect(assignments('See their pull request #91 first.\n')).toEqual(['their pull request #91']);
  });

  it('reads two references as two items: the later one replaces nothing', () => {
    expect(supersededTexts('I opened PR #41 for the parser.\n', 'Then I reviewed PR #44 for the lexer.\n')).toEqual([]);
  });

  it('leaves a colour and a number after a plain word unbound', () => {
    expect(assignments('Set the border to #abc123 and retry item #512 later.\n')).toEqual([]);
    expect(assignments('The header colour is #334455.\n')).toEqual([]);
  });
});

describe('values annotated after them in a tree listing', () => {
  it('binds an entry to the words after its arrow or comment', () => {
    const text = [
      '```',
      'run-17/',
      '├── events.ndjson        ← raw event log',
      '├── summary.md',
      '└── cache/index.db   # lookup table',
      '```',
    ].join('\n');
    expect(assignments(text)).toEqual(['events.ndjson        ← raw event log', 'cache/index.db   # lookup table']);
  });

  it('reads annotated entries as items of a listing, never a rebinding', () => {
    const tree = (entry: string) => `\`\`\`\n├── ${entry}\n\`\`\`\n`;
    expect(supersededTexts(tree('events.ndjson   ← raw event log'), tree('events.ndjson   ← raw event dump'))).toEqual(
      [],
    );
  });

  it('needs two words of annotation and the value opening its line', () => {
    expect(assignments('├── notes.txt   ← scratch\n')).toEqual([]);
    expect(assignments('see events.ndjson ← raw event log\n')).toEqual([]);
  });

  it('keeps the last word of a definition that ends its line', () => {
    expect(assignments('- `src/plan.ts` — Build order planner\n')).toContain('`src/plan.ts` — Build order planner');
  });
});

describe('named constants set to a scalar or a product', () => {
  it.each([
    ['const retryWindow = 30 * time.Second', 'retryWindow = 30 * time.Second'],
    ['export const MAX_ROWS = 500;', 'MAX_ROWS = 500'],
    ['let pageSize: number = 25 // rows per page', 'pageSize: number = 25'],
    ['CACHE_TTL = 24 * 60 * 60', 'CACHE_TTL = 24 * 60 * 60'],
  ])('%s', (line, bound) => {
    expect(assignments(`${line}\n`)).toContain(bound);
  });

  it('leaves calls and expressions that are no measure unbound', () => {
    expect(assignments('const client = newClient(cfg)\n')).toEqual([]);
    expect(assignments('const total = a * b\n')).toEqual([]);
  });
});

describe('test assertion details are no settings', () => {
  it('leaves expected and actual lines of a failed assertion unbound, and config lines bound', () => {
    const failure = 'Error Trace: run_test.go:40\n    expected: 4\n    actual  : 0\n';
    expect(assignments(failure).filter((text) => /expected|actual/.test(text))).toEqual([]);
    expect(assignments('retries: 4\n')).toEqual(['retries: 4']);
  });
});
