/**
 * The session of `speed-handle-scale` holds what the benchmark claims: N distinct host:port endpoints, each one a
 * handle of its own for the extractor, so twice N is twice the distinct handles.
 */
import { describe, expect, it } from 'vitest';
import { inventoryEndpoint, inventorySession } from '../../bench/speed/handle-scale-bench.js';
import { extractHandles } from '../../src/handles/extract.js';

describe('speed-handle-scale session', () => {
  it('lists every endpoint once, never the same text twice', () => {
    const session = inventorySession(1000);
    const listed = session
      .filter((message) => message.role === 'tool')
      .flatMap((message) => message.content.split('\n').map((line) => line.split(' ')[0]));
    expect(listed).toHaveLength(1000);
    expect(new Set(listed).size).toBe(1000);
    expect(listed[999]).toBe(inventoryEndpoint(999));
  });

  it('gives the extractor one distinct handle per endpoint', () => {
    const [, , tool] = inventorySession(250);
    const texts = new Set(extractHandles(tool?.content ?? '').map((handle) => handle.text));
    for (let index = 0; index < 250; index++)
      expect(texts, inventoryEndpoint(index)).toContain(inventoryEndpoint(index));
  });
});
