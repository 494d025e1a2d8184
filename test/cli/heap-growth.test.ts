import { describe, expect, it } from 'vitest';
import { boundHeapGrowth, REPLAY_HEAP_GROWING_PERCENT } from '../../src/cli/heap-growth.js';

describe('boundHeapGrowth', () => {
  it('sets the growth unless the user already chose one on the command line or in NODE_OPTIONS', () => {
    expect(boundHeapGrowth(REPLAY_HEAP_GROWING_PERCENT, ['--max-old-space-size=512', ''])).toBe(true);
    expect(boundHeapGrowth(REPLAY_HEAP_GROWING_PERCENT, ['--heap-growing-percent=80'])).toBe(false);
    expect(boundHeapGrowth(REPLAY_HEAP_GROWING_PERCENT, ['', '--inspect --heap_growing_percent=20'])).toBe(false);
  });
});
