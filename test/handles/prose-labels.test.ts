/**
 * Prose labels of two words and labels that say which value they name (issue 36 items 1-2): "primary region:
 * eu-west-1" is labelled `primary region`, so "primary database: …" does not replace it; "Old endpoint: a" and
 * "New endpoint: b" read as a change of `endpoint`, while "New file: a" then "New file: b" lists two new files.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';
import { applySupersession, bindingOf, supersededHandles, supersedingHandles } from '../../src/handles/supersession.js';
import type { Handle } from '../../src/types.js';

/** The prose bindings of `text`: assignment handles that hold a blank. */
const bindings = (text: string) =>
  extractHandles(text)
    .filter((handle) => handle.kind === 'assignment' && /\s/.test(handle.text))
    .map((handle) => handle.text);

function assignment(text: string, seq: number, start = 0): Handle {
  return {
    kind: 'assignment',
    text,
    key: text,
    start,
    end: start + text.length,
    spanId: `sha256:${seq}`,
    seq,
    role: 'user',
    tokens: 3,
  };
}

const superseded = (handles: readonly Handle[]) => [...supersededHandles(handles)].map((handle) => handle.text);

describe('two-word labels with an attached separator', () => {
  it('keeps every word of the label, and the value after the separator', () => {
    expect(bindingOf({ kind: 'assignment', text: 'primary region: eu-west-1' })).toMatchObject({
      label: 'primary region',
      value: 'eu-west-1',
    });
    expect(bindingOf({ kind: 'assignment', text: 'Deploy bucket: s3://acme-deploy' })).toMatchObject({
      label: 'deploy bucket',
      value: 's3://acme-deploy',
    });
  });

  it('does not let two labels that share their first word replace each other', () => {
    const region = assignment('primary region: eu-west-1', 1);
    const database = assignment('primary database: db-rw-1.internal', 2);
    expect(superseded([region, database])).toEqual([]);
  });

  it('still rebinds the same two-word label', () => {
    const before = assignment('primary region: eu-west-1', 1);
    const after = assignment('primary region: us-east-2', 2);
    expect(superseded([before, after])).toEqual(['primary region: eu-west-1']);
  });

  it('leaves a lone attached label unbound, as before (it heads an item of a list: "File: a", "File: b")', () => {
    expect(bindingOf({ kind: 'assignment', text: 'File: src/a.ts' })).toBeUndefined();
    expect(superseded([assignment('File: src/a.ts', 1), assignment('File: src/b.ts', 2)])).toEqual([]);
  });
});

describe('new, old and current open a label', () => {
  it.each([
    ['New file: src/buildinfo/buildinfo.go', 'New file: src/buildinfo/buildinfo.go'],
    ['Old endpoint: api.acme.io/v1', 'Old endpoint: api.acme.io/v1'],
    ['We moved it. The new endpoint is api.acme.io/v2 now.', 'new endpoint is api.acme.io/v2'],
    ['- Current branch: alex/fix-12', 'Current branch: alex/fix-12'],
  ])('binds %j with its modifier', (text, expected) => {
    expect(bindings(text)).toContain(expected);
  });

  it('binds nothing new for a modifier and one word without a copula ("created the new file X")', () => {
    expect(bindings('I created the new file src/a/b.ts for it.')).toEqual([]);
  });

  it('reads the label without its modifier', () => {
    expect(bindingOf({ kind: 'assignment', text: 'Old endpoint: api.acme.io/v1' })).toMatchObject({
      label: 'endpoint',
      value: 'api.acme.io/v1',
      old: true,
    });
    expect(bindingOf({ kind: 'assignment', text: 'New endpoint: api.acme.io/v2' })).toMatchObject({
      label: 'endpoint',
      listed: true,
    });
    expect(bindingOf({ kind: 'assignment', text: 'current region is eu-west-1' })).toEqual({
      label: 'region',
      value: 'eu-west-1',
      replaced: [],
    });
  });

  it('reads "Old X: a" and "New X: b" as a change of X, in either order, and follows the old value', () => {
    const old = assignment('Old endpoint: api.acme.io/v1', 3, 0);
    const next = assignment('New endpoint: api.acme.io/v2', 3, 40);
    const copy: Handle = { ...assignment('api.acme.io/v1', 2), kind: 'endpoint' };
    expect(superseded([copy, old, next]).sort()).toEqual(['Old endpoint: api.acme.io/v1', 'api.acme.io/v1']);
    expect(supersedingHandles([next, old]).get(old)).toBe(next);
  });

  it('replaces an earlier plain binding of the label with a new one', () => {
    const plain = assignment('endpoint is api.acme.io/v1', 1);
    const next = assignment('New endpoint: api.acme.io/v2', 2);
    expect(superseded([plain, next])).toEqual(['endpoint is api.acme.io/v1']);
  });

  it('keeps an old value no current binding replaced (it says itself it is old)', () => {
    expect(superseded([assignment('Old endpoint: api.acme.io/v1', 1)])).toEqual([]);
  });

  it('reads "New file: a" then "New file: b" as a list: neither replaces the other', () => {
    const first = assignment('New file: src/a/one.ts', 1);
    const second = assignment('New file: src/a/two.ts', 2);
    expect(superseded([first, second])).toEqual([]);
  });

  it('rebinds a current label like its plain form', () => {
    const before = assignment('current region is eu-west-1', 1);
    const after = assignment('region is us-east-2', 2);
    expect(superseded([before, after])).toEqual(['current region is eu-west-1']);
  });
});

describe('headings that say what was done are items of a list', () => {
  const tool = (text: string, seq: number): Handle => ({ ...assignment(text, seq), role: 'tool' });

  it.each([
    ['Updated issue: proj-kx7.4', 'updated issue', 'proj-kx7.4'],
    ['Copied transcript to: .orbit/metadata/s-1/full.jsonl', 'copied transcript', '.orbit/metadata/s-1/full.jsonl'],
    ['created successfully at: /home/u/src/a.ts', 'created successfully', '/home/u/src/a.ts'],
    ['Update File: /home/u/docs/README.md', 'update file', '/home/u/docs/README.md'],
  ])('reads %j as a listed item of %j', (text, label, value) => {
    expect(bindingOf({ kind: 'assignment', text })).toMatchObject({ label, value, listed: true, heading: true });
  });

  it('does not let one created file replace another, nor follow the first path into its copies', () => {
    const first = tool('created successfully at: /home/u/src/a.ts', 1);
    const second = tool('created successfully at: /home/u/src/b.ts', 2);
    const copy: Handle = { ...assignment('/home/u/src/a.ts', 1), kind: 'path' };
    expect(superseded([first, copy, second])).toEqual([]);
  });

  it('does not let one patched file replace another (a patch\'s "Update File:" headings)', () => {
    const first = assignment('Update File: /home/u/docs/README.md', 1);
    const second = assignment('Update File: /home/u/docs/guide.md', 2);
    expect(superseded([first, second])).toEqual([]);
  });

  it('reads one message that gives a heading two values as a list of two', () => {
    const first = assignment('Orbit session ID: `2026-01-22-d41e`', 5, 0);
    const second = assignment('Orbit session ID: `2026-01-23-d41e`', 5, 60);
    const copy: Handle = { ...assignment('2026-01-22-d41e', 4), kind: 'identifier' };
    expect(superseded([copy, first, second])).toEqual([]);
    const later = assignment('Orbit session ID: `2026-01-24-d41e`', 6);
    expect(superseded([copy, first, second, later]).sort()).toEqual([
      '2026-01-22-d41e',
      'Orbit session ID: `2026-01-22-d41e`',
      'Orbit session ID: `2026-01-23-d41e`',
    ]);
  });

  it('reads a heading a program printed as an item of its output, and a plain label a person wrote as a change', () => {
    const runs = [tool('First checkpoint ID: 4b91d2c07e3a', 1), tool('First checkpoint ID: 7f08a3e6d154', 2)];
    expect(superseded(runs)).toEqual([]);
    const said = [assignment('primary region: eu-west-1', 1), assignment('primary region: us-east-2', 2)];
    expect(superseded(said)).toEqual(['primary region: eu-west-1']);
  });
});

describe("a program's earlier result lines", () => {
  it('are kept as candidates, not superseded, and ranked after the other handles', () => {
    const tool = (text: string, seq: number): Handle => ({ ...assignment(text, seq), role: 'tool' });
    const first = tool('created successfully at: /home/u/src/a.ts', 1);
    const second = tool('created successfully at: /home/u/src/b.ts', 2);
    const other: Handle = { ...assignment('/home/u/src/c.ts', 3), kind: 'path' };
    const applied = applySupersession([first, second, other], [first, second, other]);
    expect(applied.candidates).toEqual([first, second, other]);
    expect(applied.superseded.size).toBe(0);
    expect(applied.ranked).toEqual([second, other, first]);
  });
});
