/**
 * Shortcuts of the extraction speed work (issue 37, item 2) that must decide exactly what the plain scans decided: the
 * blank test standing in for `\s`, the change pattern tried only where a "from" stands, and the place-word pre-check
 * of placement bindings.
 */
import { describe, expect, it } from 'vitest';
import { findChangeNames } from '../../src/handles/change-names.js';
import { isBlankCode } from '../../src/text/blank-codes.js';
import { extractHandles } from '../../src/handles/extract.js';

const CHANGES: ReadonlySet<string> = new Set(['renamed', 'migration', 'moved']);

/** The change names as a global scan of the whole text finds them: the reference the shortcut must agree with. */
function scannedChangeNames(view: string): string[] {
  const name = String.raw`[A-Za-z0-9](?:[\w./@:-]*[A-Za-z0-9])?`;
  const pattern = new RegExp(
    String.raw`\b([A-Za-z]+)\s+from\s+(\`?)(${name})\2\s+to\s+(\`?)(${name})\4(?![\w/-]|\.\w)`,
    'g',
  );
  const found: string[] = [];
  for (let match = pattern.exec(view); match !== null; match = pattern.exec(view)) {
    if (!CHANGES.has((match[1] ?? '').toLowerCase())) continue;
    const old = match[3] ?? '';
    const next = match[5] ?? '';
    const nextStart = match.index + match[0].length - (match[4] ?? '').length - next.length;
    for (const [start, text] of [
      [view.lastIndexOf(old, nextStart - 1), old],
      [nextStart, next],
    ] as const)
      if (/^(?=.*[A-Za-z])(?=.*[/_.\d-])/.test(text)) found.push(`${text}@${start}`);
  }
  return found;
}

const changeNames = (view: string) =>
  findChangeNames(view, CHANGES, []).map(
    (candidate) => `${view.slice(candidate.start, candidate.end)}@${candidate.start}`,
  );

describe('the blank test', () => {
  it('holds for exactly the code units `\\s` matches', () => {
    const differ: number[] = [];
    for (let code = 0; code <= 0xffff; code++)
      if (isBlankCode(code) !== /\s/.test(String.fromCharCode(code))) differ.push(code);
    expect(differ).toEqual([]);
  });
});

describe('change names found only where a "from" stands', () => {
  it.each([
    // A match whose word is no change word still takes its text: the change inside it is not read.
    ['moved from a1 to renamed from b/1 to c/2', ['a1@11']],
    ['renamed\t from\u00a0x/1 to y/2', ['x/1@14', 'y/2@21']],
    ['renamed from from to b/2 and migration from `q/1` to `q/2`.', ['b/2@21', 'q/1@45', 'q/2@54']],
    ['x1renamed from a/1 to b/2', []],
    ['renamedfrom a/1 to b/2', []],
    ['from a/1 to b/2', []],
  ])('reads %j', (view, expected) => {
    expect(changeNames(view)).toEqual(expected);
  });

  it('agrees with a scan of the whole text on generated texts', () => {
    // Clauses "WORD from X to Y" with every slot varied, some broken, joined with or without blanks.
    const slots = [
      ['renamed', 'Moved', 'migration', 'x1', 'word', 'to', 'from', ''],
      [' ', '  ', '\t', '\u00a0', '\n', ''],
      ['from', 'From', 'to'],
      [' ', '\u00a0', ''],
      ['a/1', '`b-2`', 'v1.2', 'from', 'renamed', '`x', 'name'],
      [' ', ' \t'],
      ['to', 'from'],
      [' ', ''],
      ['c/3', '`d_4`', 'to', 'migration', 'e.f', 'g-'],
      [' ', '.', '/', '', ' from ', '.x'],
    ];
    let seed = 37;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    let compared = 0;
    for (let round = 0; round < 3000; round++) {
      let view = '';
      for (let clause = 0; clause <= next() % 3; clause++)
        for (const options of slots) view += options[next() % options.length] as string;
      const expected = scannedChangeNames(view);
      expect(changeNames(view), view).toEqual(expected);
      if (expected.length > 0) compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });
});

describe('placement bindings after the place-word pre-check', () => {
  it.each([
    ['ADD IT IN notes/todo.md now', ['ADD IT IN notes/todo.md']],
    ['record it in\u00a0open_questions', ['record it in\u00a0open_questions']],
    ['please put them into\tsrc/app.ts', ['put them into\tsrc/app.ts']],
    ['save it under x/y.json', ['save it under x/y.json']],
    ['store them inside vault/keys.json', ['store them inside vault/keys.json']],
    ['wrote it to,docs/a.md', []],
  ])('binds %j as before', (text, expected) => {
    const bound = extractHandles(text)
      .filter((handle) => handle.kind === 'assignment')
      .map((handle) => handle.text);
    expect(bound).toEqual(expected);
  });
});
