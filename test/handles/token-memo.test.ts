import { beforeEach, describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import type { Candidate } from '../../src/handles/candidate.js';
import type { ExtractOptions } from '../../src/handles/extract.js';
import { MEMO_LIMIT, memoKey, TokenMemo, wideMemoKey } from '../../src/handles/token-memo.js';
import { maskMarkup } from '../../src/handles/markup.js';

/** The memo the tests extract through (a new one before each test). */
let memo = new TokenMemo();

function extract(text: string, options?: ExtractOptions) {
  return extractHandles(text, { ...options, memo });
}

function pairs(text: string): string[] {
  return extract(text).map((handle) => `${handle.kind}:${handle.text}`);
}

/**
 * Pairs of lines whose token has the same neighbours in both (the key's, or one fewer after a `(`), but whose classification
 * depends on text beyond the key: the second line's handles must be what it yields alone, after the first primed the
 * memo (and the other way round).
 */
const CONTEXTUAL: readonly (readonly [string, string])[] = [
  // an ssh command before `user@host` makes it an endpoint
  ['run ssh  deploy.bot@example.com ok', 'mail:  deploy.bot@example.com ok'],
  // `Section 1.2.3` is no version; `Station 1.2.3` is
  ['Station 1.2.3 xx', 'Section 1.2.3 xx'],
  // a time after an ISO date extends it
  ['at  2026-11-12 10:30:00 ok', 'at  2026-11-12 1 ok'],
  // a quoted value closes, or does not
  ['xx api_key="a b" yy', 'xx api_key="a'],
  // a `,item` list after an assignment value
  ['xx limits=cpu:1,mem:2 yy', 'xx limits=cpu:1,m yy'],
  // a balanced `(…)` after a URL
  ['see https://en.wikipedia.org/wiki/Foo_(bar) ok', 'see https://en.wikipedia.org/wiki/Foo_(b'],
  // an empty `()` call is part of the identifier; a call with an argument is not
  ['  run_it() ok', '  run_it(x) ok'],
  // the rest of a CSS selector line
  ['  .row-text .c {', '  .row-text .c d'],
];

describe('token memo', () => {
  beforeEach(() => {
    memo = new TokenMemo();
  });

  it.each(CONTEXTUAL)('does not reuse a classification that read beyond its key: %j / %j', (first, second) => {
    const alone = [pairs(first), pairs(second)];
    for (const [primer, line, expected] of [
      [first, second, alone[1]],
      [second, first, alone[0]],
    ] as const) {
      memo.clear();
      pairs(primer);
      expect(pairs(line)).toEqual(expected);
      // and within one text, after the primer line
      const both = extract(`${primer}\n${line}`)
        .filter((handle) => handle.start > primer.length)
        .map((handle) => `${handle.kind}:${handle.text}`);
      expect(both).toEqual(expected);
    }
    expect(alone[0]).not.toEqual(alone[1]);
  });

  it('keys a token with its neighbours, and not at the edges or next to masked markup', () => {
    expect(memoKey('ab foo cd', 'ab foo cd', 3, 6)).toBe(' foo ');
    // a `"` before takes the character before it too; a `(` after, the one after it
    expect(memoKey('a"foo"d', 'a"foo"d', 2, 5)).toBe('a"foo"');
    expect(memoKey('ab foo()', 'ab foo()', 3, 6)).toBe(' foo()');
    expect(memoKey(' foo cd', ' foo cd', 1, 4)).toBeUndefined();
    expect(memoKey('ab foo ', 'ab foo ', 3, 6)).toBeUndefined();
    // the view blanks a `\n` escape the verbatim text holds right after the token
    expect(memoKey('ab foo   x', 'ab foo\\n x', 3, 6)).toBeUndefined();
    expect(memoKey('ab foo    ', 'ab foo \\n ', 3, 6)).toBe(' foo ');
  });

  it('keys a token next to masked markup or an edge by its wide key, the verbatim characters beside the view ones', () => {
    // `\\"x\\"` blanks to spaces in the view; the verbatim quotes decide whether a hyphenated word is quoted whole
    const quoted = maskMarkup('x \\"payments-api\\" y');
    const open = maskMarkup('x \\"payments-api y ');
    expect(quoted.view.slice(0, 8)).toBe(open.view.slice(0, 8));
    const keys = [
      wideMemoKey(quoted.view, 'x \\"payments-api\\" y', 4, 16),
      wideMemoKey(open.view, 'x \\"payments-api y ', 4, 16),
    ];
    expect(keys[0]).not.toBe(keys[1]);
    // the header: the token's length, and which neighbours lie outside the text (here three of the four)
    expect(wideMemoKey('ab', 'ab', 0, 2)).not.toBe(wideMemoKey('ab  ', 'ab  ', 0, 2));
    expect(wideMemoKey(' ab', ' ab', 1, 3)).toBe('\u0002\u000d ab ');
    expect(wideMemoKey('a', 'a', 0, 1 << 16)).toBeUndefined();
  });

  it('remembers a token next to masked markup, and tells apart what only the verbatim text shows', () => {
    const texts = ['x \\"payments-api\\" y', 'x \\"payments-api y', '"payments-api" and', '"payments-api and'];
    const alone = texts.map((text) => pairs(text));
    expect(alone[0]).toEqual(['identifier:payments-api']);
    expect(alone[2]).toEqual(['identifier:payments-api']);
    for (const order of [texts, [...texts].reverse()]) {
      memo.clear();
      for (const text of order) expect(pairs(text)).toEqual(alone[texts.indexOf(text)]);
    }
    const { view } = maskMarkup(texts[0] ?? '');
    const key = wideMemoKey(view, texts[0] ?? '', 4, 16) ?? '';
    const out: Candidate[] = [];
    expect(memo.replay(key, 0, key.length, 4, out, true)).toBe(true);
    expect(out).toEqual([{ kind: 'identifier', start: 4, end: 16 }]);
  });

  it('yields the same handles whatever it holds, also after starting over when full', () => {
    const text = 'see `payments-api` and self.retry_count(), src/a.ts:12, v1.2.3, "test-dir" and PAY-4412.';
    const fresh = extractHandles(text);
    expect(extract(text)).toEqual(fresh);
    const filler = Array.from({ length: MEMO_LIMIT + 10 }, (_, index) => `tok_${index}`).join(' ');
    extract(filler);
    expect(extract(text)).toEqual(fresh);
    expect(extract(text)).toEqual(fresh);
  });
});

describe('memo owners', () => {
  it('is used only when passed: two memos share nothing, and no memo is kept between calls without one', () => {
    const text = 'see self.retry_count() and src/a.ts:12 then v1.2.3';
    const [first, second] = [new TokenMemo(), new TokenMemo()];
    const plain = extractHandles(text);
    expect(extractHandles(text, { memo: first })).toEqual(plain);
    const { view } = maskMarkup(text);
    const at = text.indexOf('src/a.ts');
    const key = memoKey(view, text, at, at + 'src/a.ts:12'.length) ?? '';
    const from = at - 1;
    const probe = (memo: TokenMemo) => memo.replay(view, from, from + key.length, at, []);
    expect(key).toBe(' src/a.ts:12 ');
    expect(probe(first)).toBe(true);
    expect(probe(second)).toBe(false);
    extractHandles(text);
    expect(probe(second)).toBe(false);
    expect(extractHandles(text, { memo: second })).toEqual(plain);
    expect(probe(second)).toBe(true);
  });
});

describe('memo entries', () => {
  beforeEach(() => {
    memo = new TokenMemo();
  });

  it('places a remembered candidate that starts before its token, or reaches far past it, where it belongs', () => {
    const out: Candidate[] = [];
    memo.begin();
    memo.remember('k1', 0, 2, 10, [{ kind: 'path', start: 8, end: 15 }], 0);
    memo.remember('k2', 0, 2, 10, [{ kind: 'identifier', start: 10, end: 10 + (1 << 16) }], 0);
    expect(memo.replay('k1', 0, 2, 100, out)).toBe(true);
    expect(memo.replay('k2', 0, 2, 0, out)).toBe(true);
    expect(out).toEqual([
      { kind: 'path', start: 98, end: 105 },
      { kind: 'identifier', start: 0, end: 1 << 16 },
    ]);
  });

  it('remembers a classification with no candidates, and none marked contextual', () => {
    const out: Candidate[] = [];
    memo.begin();
    memo.remember('none', 0, 4, 0, [], 0);
    memo.markContextual();
    memo.remember('ctx', 0, 3, 0, [{ kind: 'path', start: 0, end: 3 }], 0);
    expect(memo.replay('none', 0, 4, 5, out)).toBe(true);
    expect(memo.replay('ctx', 0, 3, 5, out)).toBe(false);
    expect(out).toEqual([]);
  });
});

describe('words ending a sentence or label', () => {
  beforeEach(() => {
    memo = new TokenMemo();
  });

  it('yield nothing, while the same word called, camel-cased or with a digit or member still does', () => {
    expect(pairs('Note: the end. Done!. 42: and 2024. ok:: x.')).toEqual([]);
    expect(pairs('call self() and map.() then self(x), runIt. run_it. abc1. self.end.')).toEqual([
      'identifier:self()',
      'identifier:runIt',
      'identifier:run_it',
      'identifier:abc1',
      'identifier:self.end',
    ]);
  });
});
