import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

const assignments = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment')
    .map((handle) => handle.text);

describe('predicates: a value followed by what it is', () => {
  it.each([
    [
      'so `.git/worktrees/test-7/` is the internal name, not the branch',
      '`.git/worktrees/test-7/` is the internal name',
    ],
    ['I think OPS-242 is the single fix we need', 'OPS-242 is the single fix'],
    [
      'The issue is now: 2026-01-23-a6c3 and 2026-01-22-a6c3 this is the same user session but we said no',
      '2026-01-23-a6c3 and 2026-01-22-a6c3 this is the same user session',
    ],
    ['e53647ba is a tree in any case', 'e53647ba is a tree'],
  ])('binds %j', (text, binding) => {
    expect(assignments(text)).toContain(binding);
  });

  it.each([
    // no article after the copula: a state, not what the value is
    'db-7.internal is running again',
    'src/a.ts is fine',
    // a code name (no digit, slash, dash or @) is no value to bind
    '`sessionId` is the key',
    // only function words after the article
    'v2/api is the',
  ])('binds nothing in %j', (text) => {
    expect(assignments(text).filter((binding) => / (?:is|are) /.test(binding))).toEqual([]);
  });
});
