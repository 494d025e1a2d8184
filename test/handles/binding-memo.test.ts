/**
 * `bindingOf` remembers the binding of each assignment and number text it read (a pure function of kind and text):
 * every compaction reads its candidates' bindings again (summary, supersession, ranking, index layout), and most of
 * them were the last compaction's candidates. The bindings are the same as computed afresh, and frozen.
 */
import { describe, expect, it } from 'vitest';
import { applySupersession, bindingOf, supersededHandles } from '../../src/handles/supersession.js';
import type { Handle, HandleKind } from '../../src/types.js';

function handle(text: string, kind: HandleKind, seq: number): Handle {
  return {
    kind,
    text,
    key: text,
    start: 0,
    end: text.length,
    spanId: `sha256:${seq}`,
    seq,
    role: 'assistant',
    tokens: 3,
  };
}

describe('bindingOf, remembered by kind and text', () => {
  it('gives the same frozen binding for two handles of one text, read once', () => {
    const first = bindingOf(handle('DB_HOST=db-1.internal', 'assignment', 1));
    const second = bindingOf(handle('DB_HOST=db-1.internal', 'assignment', 7));
    expect(first).toEqual({ label: 'db host', value: 'db-1.internal', replaced: [], removed: false });
    // Remembered: the very object of the first read, frozen so no caller can change it for the next.
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.replaced)).toBe(true);
  });

  it('tells kinds apart: the same text as a number, an assignment or an identifier', () => {
    const text = 'pool size of 40';
    expect(bindingOf(handle(text, 'number', 1))).toEqual({ label: 'pool size', value: '40', replaced: [] });
    expect(bindingOf(handle(text, 'assignment', 1))).toEqual({ label: 'pool size', value: '40', replaced: [] });
    expect(bindingOf(handle('pool: 40', 'number', 1))).toBeUndefined();
    expect(bindingOf(handle('DB_HOST=x', 'identifier', 1))).toBeUndefined();
    // A text with no binding is remembered as none, and stays none.
    expect(bindingOf(handle('name: web', 'assignment', 1))).toBeUndefined();
    expect(bindingOf(handle('name: web', 'assignment', 2))).toBeUndefined();
  });

  it('supersession reads the same bindings the second time round', () => {
    const old = handle('DEPLOY_BUCKET=s3://old-bucket', 'assignment', 1);
    const copy = handle('s3://old-bucket', 'url', 2);
    const current = handle('DEPLOY_BUCKET=s3://new-bucket', 'assignment', 3);
    const changed = handle('the region moved from us-east-1 to eu-west-2', 'assignment', 4);
    const candidates = [old, copy, current, changed];
    const once = supersededHandles(candidates);
    const twice = supersededHandles(candidates);
    expect([...once]).toEqual([old, copy]);
    expect([...twice]).toEqual([...once]);
    const applied = applySupersession(candidates, [...candidates]);
    expect(applied.ranked).toEqual([current, changed]);
    expect(applied.replacedBy.get(old)).toBe(current);
  });
});
