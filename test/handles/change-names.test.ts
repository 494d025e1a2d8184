/**
 * A change names both its values ("the cutover from billing/ledger to billing/ledger-v2"): names no detector takes on
 * their own shape are values there, so the change is bound and supersedes what it replaced.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { bindingOf, supersededHandles } from '../../src/handles/supersession.js';
import type { Handle } from '../../src/types.js';

const pairs = (text: string) => extractHandles(text).map((handle) => `${handle.kind}:${handle.text}`);

function handle(kind: Handle['kind'], text: string, seq: number): Handle {
  return { kind, text, key: text, start: 0, end: text.length, spanId: `sha256:${seq}`, seq, role: 'user', tokens: 3 };
}

describe('names a change states', () => {
  it('reads both names of "CHANGE from X to Y" as values and binds the change', () => {
    const text = 'Heads up: the cutover from billing/ledger to billing/ledger-v2 ran last night.';
    expect(pairs(text)).toEqual(
      expect.arrayContaining([
        'assignment:cutover from billing/ledger to billing/ledger-v2',
        'identifier:billing/ledger',
        'identifier:billing/ledger-v2',
      ]),
    );
    for (const found of extractHandles(text)) expect(text.slice(found.start, found.end)).toBe(found.text);
  });

  it('takes names in backticks, without the backticks', () => {
    expect(pairs('We did a rename from `queues/inbound` to `queues/intake` on Monday.')).toEqual(
      expect.arrayContaining(['identifier:queues/inbound', 'identifier:queues/intake']),
    );
  });

  it('makes the old name a replaced value: its bare copy leaves the window', () => {
    const text = 'we finished the migration from archive/main to archive/cold-2 yesterday';
    const change = extractHandles(text).find((found) => found.kind === 'assignment');
    expect(bindingOf(change as Handle)).toMatchObject({ value: 'archive/cold-2', replaced: ['archive/main'] });
    const old = handle('identifier', 'archive/main', 1);
    const superseded = supersededHandles([old, handle('assignment', change?.text ?? '', 2)]);
    expect([...superseded].map((found) => found.text)).toContain('archive/main');
  });

  it('takes nothing without a change word, or for plain words (no digit or separator)', () => {
    expect(pairs('please copy from notes/draft to notes/final')).toEqual([]);
    expect(pairs('a rename from logs to events')).toEqual([]);
  });
});
