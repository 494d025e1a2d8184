/**
 * A shell command substitution scans as `name=$` (the token ends at its parenthesis): the assignment is the whole
 * `name=$(command)` when it closes on its line, short enough to show; else it states no value and is no assignment.
 */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

const texts = (text: string) => extractHandles(text, { toolOutput: true }).map((handle) => handle.text);

describe('a shell command substitution', () => {
  it('is the whole `name=$(command)`: what the name is set from', () => {
    const found = texts('rev=$(git rev-parse HEAD); echo "$rev"');
    expect(found).toContain('rev=$(git rev-parse HEAD)');
    expect(found).not.toContain('rev=$');
    expect(texts('count=$(wc -l < $(ls -1 build/*.log | head -1))')).toContain(
      'count=$(wc -l < $(ls -1 build/*.log | head -1))',
    );
  });

  it('states no value when it does not close on its line or runs long: no assignment then', () => {
    expect(texts('rev=$(git rev-parse\\\n  HEAD)').some((text) => text.startsWith('rev='))).toBe(false);
    const long = `out=$(${'x '.repeat(80)})`;
    expect(texts(long).some((text) => text.startsWith('out='))).toBe(false);
  });

  it('leaves `NAME=$OTHER` an assignment', () => {
    expect(texts('export TARGET_DIR=$BUILD_ROOT')).toContain('TARGET_DIR=$BUILD_ROOT');
  });

  it('reads the same text the same way whatever was read before it (the token memo)', () => {
    expect(texts('a rev=$ b\nrev=$(git log -1)')).toEqual(texts('a rev=$ b\nrev=$(git log -1)'));
    expect(texts('rev=$(git log -1)\nrev=$ alone')).toContain('rev=$(git log -1)');
    expect(texts('rev=$ alone\nrev=$(git log -1)')).toContain('rev=$(git log -1)');
  });
});
