/**
 * Which handle replaced each superseded one (issue 36: records carry it): the later binding of the label, the added
 * line of a diff after its removed line, the "from X to Y" binding, and for a bare copy of an old value the binding
 * that replaced that value. `applySupersession` reports the same map for what it drops; rebound code in tool output
 * (ranked last, not dropped) and a removed line with no added line are not in it.
 */
import { describe, expect, it } from 'vitest';
import { applySupersession, supersededHandles, supersedingHandles } from '../../src/handles/supersession.js';
import type { Handle, HandleKind, Role } from '../../src/types.js';

function handle(kind: HandleKind, text: string, seq: number, start = 0, role: Role = 'user'): Handle {
  return { kind, text, key: text, start, end: start + text.length, spanId: `sha256:${seq}`, seq, role, tokens: 3 };
}

const pairs = (map: ReadonlyMap<Handle, Handle>) =>
  [...map].map(([old, by]) => [old.text, by.text]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));

describe('supersedingHandles', () => {
  it('names the later binding, for the old binding and for the bare copy of its value', () => {
    const old = handle('assignment', 'DB_HOST=db-ro-3', 1);
    const bare = handle('identifier', 'db-ro-3', 1, 8);
    const current = handle('assignment', 'DB_HOST=db-ro-10', 5);
    const pool = handle('number', 'pool size is 44 connections', 0);
    const update = handle('number', 'pool size is now 79', 6);
    expect(pairs(supersedingHandles([old, bare, current, pool, update]))).toEqual([
      ['DB_HOST=db-ro-3', 'DB_HOST=db-ro-10'],
      ['db-ro-3', 'DB_HOST=db-ro-10'],
      ['pool size is 44 connections', 'pool size is now 79'],
    ]);
  });

  it('names the added line after a removed one, and the "from X to Y" binding for X', () => {
    const removed = handle('assignment', '-TIMEOUT_MS=3000', 4, 0, 'tool');
    const added = handle('assignment', 'TIMEOUT_MS=4500', 4, 20, 'tool');
    const dashboard = handle('assignment', 'latency dashboard is at grafana.io/d/a-1', 1);
    const moved = handle('assignment', 'dashboard moved from grafana.io/d/a-1 to grafana.io/d/b-2', 7);
    expect(pairs(supersedingHandles([removed, added, dashboard, moved]))).toEqual([
      ['-TIMEOUT_MS=3000', 'TIMEOUT_MS=4500'],
      ['latency dashboard is at grafana.io/d/a-1', 'dashboard moved from grafana.io/d/a-1 to grafana.io/d/b-2'],
    ]);
  });

  it('leaves out a removed line with no added line after it, though it is superseded', () => {
    const removed = handle('assignment', '-FEATURE_FLAG_X=on', 3, 0, 'tool');
    expect(supersededHandles([removed]).has(removed)).toBe(true);
    expect(supersedingHandles([removed]).size).toBe(0);
  });

  it('applySupersession reports the same map for what it drops, and none for rebound code ranked last', () => {
    const first = handle('assignment', 'max_length=20', 1, 0, 'tool');
    const second = handle('assignment', 'max_length=5', 2, 0, 'tool');
    const old = handle('assignment', 'DB_HOST=db-ro-3', 3);
    const current = handle('assignment', 'DB_HOST=db-ro-10', 4);
    const all = [first, second, old, current];
    const applied = applySupersession(all, all);
    expect([...applied.superseded].map((item) => item.text)).toEqual(['DB_HOST=db-ro-3']);
    expect(pairs(applied.replacedBy)).toEqual([['DB_HOST=db-ro-3', 'DB_HOST=db-ro-10']]);
    expect(pairs(supersedingHandles(all))).toEqual(pairs(applied.replacedBy));
    expect(applySupersession([first], [first]).replacedBy.size).toBe(0);
  });
});
