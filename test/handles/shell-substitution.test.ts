/** A shell command substitution cut at its parenthesis is no `KEY=VALUE`: it states no value, and would crowd the index. */
import { describe, expect, it } from 'vitest';
import { extractHandles } from '../../src/handles/extract.js';

describe('a shell command substitution', () => {
  it('states no value: `name=$(…)` is not an assignment, `NAME=$OTHER` still is', () => {
    const texts = (text: string) => extractHandles(text, { toolOutput: true }).map((handle) => handle.text);
    expect(texts('rev=$(git rev-parse HEAD); echo "$rev"')).not.toContain('rev=$');
    expect(texts('export TARGET_DIR=$BUILD_ROOT')).toContain('TARGET_DIR=$BUILD_ROOT');
  });
});
