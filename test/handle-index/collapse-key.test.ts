import { describe, expect, it } from 'vitest';
import { collapseKey } from '../../src/handle-index/near-duplicates.js';
import type { Handle } from '../../src/types.js';

type KeyedHandle = Pick<Handle, 'kind' | 'text' | 'role'>;

const handles: KeyedHandle[] = [
  { kind: 'error', text: 'ERROR 2026-11-12T10:00:03Z worker 7 failed: timeout after 30s', role: 'tool' },
  { kind: 'error', text: 'ERROR 2026-11-12T10:04:41Z worker 9 failed: timeout after 30s', role: 'tool' },
  { kind: 'constraint', text: 'Never restart worker pool 3 before 10:30.', role: 'user' },
  { kind: 'constraint', text: 'Never restart worker pool 5 before 11:45.', role: 'system' },
  { kind: 'constraint', text: 'ok 1', role: 'tool' },
  { kind: 'path', text: '/srv/app/conf-3.yaml', role: 'tool' },
];

describe('collapseKey of a frozen handle (remembered per handle object)', () => {
  it('is the key computed afresh, each time it is asked', () => {
    const frozen = handles.map((handle) => Object.freeze({ ...handle }));
    // Unfrozen copies are never remembered: their keys are computed each time.
    const computed = handles.map((handle) => collapseKey({ ...handle }));
    expect(computed.filter((key) => key !== undefined).length).toBe(4);
    expect(computed[0]).toBe(computed[1]);
    expect(computed[2]).not.toBe(computed[3]);
    for (let round = 0; round < 3; round++) expect(frozen.map((handle) => collapseKey(handle))).toEqual(computed);
  });
});
