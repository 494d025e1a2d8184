/**
 * Extraction speed work (issue 37, item 2) keeps every handle: these tests pin what the faster paths must still
 * decide (the tool-output line judge read lazily, the label pre-check, the code-symbol count, the assignment sweep of
 * bindings) and check that the work they skip is skipped (lines not read, amounts found once per text).
 */
import { describe, expect, it, vi } from 'vitest';
import type * as Amounts from '../../src/handles/amounts.js';

const amountCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/handles/amounts.js', async (importOriginal) => {
  const original = await importOriginal<typeof Amounts>();
  return {
    ...original,
    findAmounts: (...args: Parameters<typeof original.findAmounts>) => {
      amountCalls.count++;
      original.findAmounts(...args);
    },
  };
});

const { extractHandles } = await import('../../src/handles/extract.js');
const { findBindings } = await import('../../src/handles/bindings.js');
const { BlockedLines, toolLineJudge } = await import('../../src/handles/tool-document.js');
const { isSourceLine } = await import('../../src/handles/tool-lines.js');
const { imitatesLabel } = await import('../../src/text/role-labels.js');

function lineStarts(view: string): number[] {
  const starts = [0];
  for (let at = view.indexOf('\n'); at !== -1; at = view.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The judge's verdict on every line, asked in `order` (`forward`, or from the last line back). */
function judged(lines: readonly string[], order: 'forward' | 'backward'): string[] {
  const view = lines.join('\n');
  const judge = toolLineJudge(view, new Set());
  const starts = lineStarts(view);
  const asked = order === 'forward' ? starts : [...starts].reverse();
  const verdicts = new Map(asked.map((start) => [start, judge(start)]));
  return starts.map((start) => verdicts.get(start) ?? '');
}

describe('tool-output line judge, read lazily', () => {
  const cases: [string, string[], string[]][] = [
    [
      'an error and the advice under it',
      [
        'Install the tool first.',
        'Error: connection refused',
        'Please make sure the server is running.',
        'ensure the port is open',
        'Never push to main.',
        '',
        'Always run the tests.',
      ],
      ['prose', 'skip', 'skip', 'skip', 'prose', 'skip', 'prose'],
    ],
    [
      "an example lead that is an error's advice opens no example",
      [
        'Read this first.',
        'fatal: not a git repository',
        'see for example:',
        '- never commit secrets',
        '',
        'Usage notes, for example:',
        '- never commit secrets',
        '',
        'Do not edit the lock file.',
      ],
      ['prose', 'skip', 'skip', 'prose', 'skip', 'prose', 'skip', 'skip', 'prose'],
    ],
    [
      'the error tail ends four lines after the error',
      ['Error: boom', 'a', 'b', 'c', 'd', 'please retry later', 'Please retry later.'],
      ['skip', 'skip', 'skip', 'skip', 'skip', 'prose', 'prose'],
    ],
    [
      'fences and example headings',
      [
        'Intro prose.',
        '```',
        'never in a fence',
        '```',
        '## Examples',
        'never in examples',
        '',
        '# Rules',
        'Never force push.',
      ],
      ['prose', 'skip', 'skip', 'skip', 'prose', 'skip', 'skip', 'prose', 'prose'],
    ],
  ];

  it.each(cases)('%s: the same verdicts asked forward or backward', (_name, lines, expected) => {
    expect(judged(lines, 'forward')).toEqual(expected);
    expect(judged(lines, 'backward')).toEqual(expected);
  });

  it('reads a long output only as far as the line asked about, and tests error lines only near it', () => {
    const lines = Array.from({ length: 10_000 }, (_, index) => (index % 7 === 0 ? '' : `Line ${index} of the notes.`));
    const starts = lineStarts(lines.join('\n'));
    const blocked = new BlockedLines(lines, starts, -1);
    expect(blocked.has(3)).toBe(false);
    expect(blocked.reads.lines).toBe(4);
    expect(blocked.reads.errorTests).toBeLessThanOrEqual(1);
    expect(blocked.has(9_000)).toBe(false);
    expect(blocked.reads.lines).toBe(9_001);
    expect(blocked.reads.errorTests).toBeLessThanOrEqual(2);
  });
});

describe('pre-checks that replace a regex', () => {
  /** The regex the label pre-check replaces. */
  const MAY_IMITATE = /^[\t \-*+>]*(?:[\u0080-\uFFFF]|[[pchkPCHK])/;

  it('the label pre-check lets through every line the regex lets through', () => {
    const heads = ['', ' ', '\t', '-', '*', '+', '>', ' - ', '>>', '-*+> \t', '#', '1.', '—'];
    const firsts = [
      '',
      '[',
      'p',
      'P',
      'c',
      'h',
      'k',
      'K',
      'x',
      'u',
      '[user]',
      'Pinned constraints (2):',
      '\u00a0',
      '\ud83d',
      '\uff3b',
    ];
    for (const head of heads)
      for (const first of firsts) {
        const line = `${head}${first}`;
        if (!MAY_IMITATE.test(line)) expect(imitatesLabel(line), JSON.stringify(line)).toBe(false);
      }
    expect(imitatesLabel('- [user instruction] Push the branch')).toBe(true);
    expect(imitatesLabel(' > [tool result id=x]')).toBe(true);
    expect(imitatesLabel('Pinned constraints (2):')).toBe(true);
    expect(imitatesLabel('-x [user]')).toBe(false);
  });

  it('counts code symbols as the character class did', () => {
    // three symbols in 24 characters or fewer is code; the same three in a longer line is not
    expect(isSourceLine('a [b] c; d')).toBe(true);
    expect(isSourceLine('see [the notes] about it; it is all explained there')).toBe(false);
    expect(isSourceLine('x \\ y $ z & w')).toBe(true);
    expect(isSourceLine('plain words only here')).toBe(false);
  });
});

describe('bindings and amounts', () => {
  it('finds money amounts once per text, for the numbers and the bindings', () => {
    const text = 'The monthly budget is $200 per month and the host is db.internal.';
    amountCalls.count = 0;
    const handles = extractHandles(text);
    expect(amountCalls.count).toBe(1);
    expect(handles.map((handle) => `${handle.kind}:${handle.text}`)).toContain(
      'assignment:monthly budget is $200 per month',
    );
    amountCalls.count = 0;
    extractHandles(text, { kinds: ['assignment'] });
    extractHandles(text, { kinds: ['number'] });
    expect(amountCalls.count).toBe(2);
    amountCalls.count = 0;
    extractHandles(text, { kinds: ['path'] });
    expect(amountCalls.count).toBe(0);
  });

  it('leaves a value unbound inside an earlier, longer assignment that a shorter one follows', () => {
    const view = 'settings: the staging host is db-1.internal:5432 ok';
    const value = { kind: 'endpoint' as const, start: view.indexOf('db-1.internal'), end: view.indexOf(' ok') };
    const outer = { kind: 'assignment' as const, start: 0, end: view.length };
    const inner = { kind: 'assignment' as const, start: 10, end: 12 };
    const inside: { kind: 'assignment' | 'endpoint'; start: number; end: number }[] = [];
    findBindings(view, [inner, value, outer], inside, []);
    expect(inside).toEqual([]);
    const unbound: { kind: 'assignment' | 'endpoint'; start: number; end: number }[] = [];
    findBindings(view, [inner, value], unbound, []);
    expect(unbound).toEqual([{ kind: 'assignment', start: view.indexOf('staging host'), end: value.end }]);
  });
});
