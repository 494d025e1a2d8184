import { describe, expect, it } from 'vitest';
import { handleKey } from '../../src/handles/normalize.js';

describe('handle keys', () => {
  it('collapses whitespace runs and control spaces, and only those', () => {
    expect(handleKey('error', 'a  b\tc\u00a0\u00a0d\ne')).toBe('a b c d e');
    expect(handleKey('error', 'a b\u00a0c\u3000d')).toBe('a b\u00a0c\u3000d');
    expect(handleKey('error', 'a\u00a0 b')).toBe('a b');
    expect(handleKey('number', '10 MB')).toBe('10 mb');
    expect(handleKey('constraint', 'Never  push to main')).toBe('never push to main');
  });

  it('unwraps quotes and brackets, and lowercases hex ids only', () => {
    expect(handleKey('identifier', '"ABCDEF1234"')).toBe('abcdef1234');
    expect(handleKey('identifier', 'sha256:ABCDEF12')).toBe('sha256:abcdef12');
    expect(handleKey('identifier', '‘SomeName1’')).toBe('SomeName1');
    expect(handleKey('identifier', 'Fooooo123()')).toBe('Fooooo123');
    expect(handleKey('identifier', '\tself.Value')).toBe('self.Value');
  });
});
