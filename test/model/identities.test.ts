import { describe, expect, it } from 'vitest';
import { handleIdentity } from '../../src/handles/handle-sets.js';
import { identityOf } from '../../src/model/identities.js';
import type { HandleKind } from '../../src/types.js';

describe('identityOf', () => {
  it('is handleIdentity, also for handles whose kind or text can change', () => {
    const frozen = Object.freeze({ kind: 'path' as HandleKind, text: 'src/a.ts' });
    expect(identityOf(frozen)).toBe(handleIdentity(frozen));
    expect(identityOf(frozen)).toBe(handleIdentity(frozen));
    const mutable = { kind: 'path' as HandleKind, text: 'src/a.ts' };
    expect(identityOf(mutable)).toBe(handleIdentity(mutable));
    mutable.text = 'src/b.ts';
    expect(identityOf(mutable)).toBe('path\u0000src/b.ts');
    let calls = 0;
    const getter = Object.freeze(
      Object.defineProperty({ kind: 'path' as HandleKind }, 'text', { get: () => `t${calls++}` }) as {
        kind: HandleKind;
        text: string;
      },
    );
    expect(identityOf(getter)).toBe('path\u0000t0');
    expect(identityOf(getter)).toBe('path\u0000t1');
  });
});
