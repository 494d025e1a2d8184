import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { TokenMemo } from '../../src/handles/token-memo.js';

function pairs(text: string, memo?: TokenMemo): string[] {
  return extractHandles(text, { memo }).map((handle) => `${handle.kind}:${handle.text}`);
}

function tokenPairs(text: string): string[] {
  return pairs(text).filter((pair) => !pair.startsWith('constraint:') && !pair.startsWith('assignment:'));
}

describe('route patterns', () => {
  it.each([
    ['see /projects/:project_id/builds/:build_id here', 'path:/projects/:project_id/builds/:build_id'],
    ['see /users/{id}/posts here', 'path:/users/{id}/posts'],
    ["route '/users/{user_id}' ok", 'path:/users/{user_id}'],
    ['call (/api/v1/items/:id) now', 'path:/api/v1/items/:id'],
    ['ends a sentence: /projects/:project_id/review.', 'path:/projects/:project_id/review'],
  ])('%j is one path', (text, expected) => {
    expect(tokenPairs(text)).toEqual([expected]);
  });

  it('keeps a method route an endpoint', () => {
    expect(tokenPairs('GET /api/users/:id')).toEqual(['endpoint:GET /api/users/:id']);
  });

  it.each([
    // a line suffix, a pytest member, a URL, an atom, a config line, JSON, a PATH list
    ['open a/b.py:12:3 now', ['path:a/b.py']],
    ['run x.py::test_x now', ['path:x.py', 'identifier:test_x']],
    ['get http://x.com/a/:b now', ['url:http://x.com/a/:b']],
    ['atom :user here', []],
    ['{"a":{"b":1}}', []],
    ['PATH /usr/bin:/bin ok', []],
    // a parameter alone, or only parameters: no literal segment to name the route
    ['only /:id or /{a}/{b} here', []],
    // a route inside a URL stays the URL's
    ['see https://x.com/users/{id} now', ['url:https://x.com/users/']],
  ])('%j keeps its handles', (text, expected) => {
    expect(tokenPairs(text)).toEqual(expected);
  });
});

describe('hyphenated words marked as code', () => {
  it.each([
    ['Use `get-url` here', ['identifier:get-url']],
    ['Run `git remote get-url origin` first', ['identifier:get-url']],
    [
      'Then `tmux set-window-status -t 1` and `fast-forward`',
      ['identifier:set-window-status', 'identifier:fast-forward'],
    ],
    [
      '{"command":"git remote get-url origin && tmux set-window-status x; gh pr delete-branch"}',
      ['identifier:get-url', 'identifier:set-window-status', 'identifier:delete-branch'],
    ],
    ['{"cmd":"cd /repo && git rev-parse HEAD"}', ['path:/repo', 'identifier:rev-parse']],
  ])('%j', (text, expected) => {
    expect(tokenPairs(text)).toEqual(expected);
  });

  it.each([
    'Keep it as-is, read-only, before/after, pre-existing, fast-forward.',
    'A `read` then read-only prose, and `x` after.',
    '{"command":"git commit -m \\"fix read-only as-is\\" && echo pre-existing"}',
    '{"command":"cat <<EOF\\nand then read-only\\nEOF"}',
    '{"command":"ls","description":"read-only check"}',
    'const s = `a ${x} is missing a top-level key`;',
    '```\nthe read-only flag\n```',
  ])('%j leaves prose compounds alone', (text) => {
    expect(tokenPairs(text).filter((pair) => /-(?:only|is|existing|level)$/.test(pair))).toEqual([]);
  });

  it('finds the same handles with and without a memo, in any order', () => {
    const texts = [
      'Use `git remote get-url origin` here',
      'Use git remote get-url origin here',
      '{"command":"git remote get-url origin"}',
      '{"description":"git remote get-url origin"}',
      'x `a b-c d` y',
      'x a b-c d y',
      'see /users/{id}/posts and /users/{id}',
    ];
    const alone = texts.map((text) => pairs(text));
    const memo = new TokenMemo();
    for (const order of [texts, [...texts].reverse()]) {
      memo.clear();
      for (const text of order) expect(pairs(text, memo)).toEqual(alone[texts.indexOf(text)]);
      expect(pairs(texts.join('\n'), memo)).toEqual(pairs(texts.join('\n')));
    }
  });
});
